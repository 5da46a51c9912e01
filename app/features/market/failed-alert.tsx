/** product §8's "Failed" alert under a trade form: the backend's refusal or the wallet's, in its own words. */
export function FailedAlert({ message }: { message: string }) {
  return (
    <div
      role="alert"
      aria-labelledby="trade-failed-title"
      className="mt-3 rounded-md border border-red-700 bg-red-950 px-3 py-2 text-sm text-red-100"
    >
      <h3 id="trade-failed-title" className="font-semibold">
        Failed
      </h3>
      <p>{message}</p>
    </div>
  );
}
