import type { ReactNode } from "react";

/** A ship's stats as rows of a table's body, each label heading its value: on the ship's page and its market item page. */
export function StatRows({ rows }: { rows: readonly { label: string; value: ReactNode }[] }) {
  return rows.map((row) => (
    <tr key={row.label} className="border-b border-space-800">
      <th scope="row" className="py-1 text-left font-normal text-slate-300">
        {row.label}
      </th>
      <td className="py-1 text-right text-white">{row.value}</td>
    </tr>
  ));
}
