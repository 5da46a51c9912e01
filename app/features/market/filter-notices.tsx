/** What the codec dropped from the URL, in plain words: the page still renders, with defaults. */
export function FilterNotices({ notices }: { notices: string[] }) {
  if (!notices.length) return null;
  return (
    <div role="status" className="rounded-lg border border-spark-600 bg-space-900 px-4 py-3 text-sm">
      <p className="font-semibold text-spark-300">Some filters in this link were not understood and were left out:</p>
      <ul className="mt-1 list-disc pl-5 text-slate-100">
        {notices.map((notice) => (
          <li key={notice}>{notice}</li>
        ))}
      </ul>
    </div>
  );
}

/** A backend failure on a page that otherwise works. */
export function MarketProblem({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-400 bg-red-950 px-4 py-3 text-sm text-red-100">
      {message}
    </p>
  );
}
