/** The market tables' header row: plain column titles, spaced apart except after the last. */
export function TableHead({ columns, className = "" }: { columns: readonly string[]; className?: string }) {
  return (
    <thead className={`text-slate-300 ${className}`}>
      <tr>
        {columns.map((title, index) => (
          <th key={title} scope="col" className={index < columns.length - 1 ? "py-1 pr-3 font-normal" : "py-1 font-normal"}>
            {title}
          </th>
        ))}
      </tr>
    </thead>
  );
}
