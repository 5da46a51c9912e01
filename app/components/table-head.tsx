import type { ReactNode } from "react";

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

/** A header row's cells: `titles[i]` in a column header with the classes `classNames[i]` (none where undefined). */
export function HeaderCells({ titles, classNames }: { titles: readonly ReactNode[]; classNames: readonly (string | undefined)[] }) {
  return (
    <>
      {titles.map((title, index) => (
        <th key={index} scope="col" className={classNames[index]}>
          {title}
        </th>
      ))}
    </>
  );
}
