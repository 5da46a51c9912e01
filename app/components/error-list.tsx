/** Markup only (no Conform), so pages without Conform forms can show errors with it alone. */
export type ListOfErrors = readonly (string | null | undefined)[] | null | undefined;

/** The one way errors are shown: next to their field (or the form), announced to screen readers. */
export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter((error): error is string => Boolean(error));
  if (!shown?.length) return null;
  return (
    <ul id={id} className="mt-1 flex flex-col gap-1" aria-live="polite">
      {shown.map((error) => (
        <li key={error} className="text-sm text-red-300">
          {error}
        </li>
      ))}
    </ul>
  );
}
