/**
 * The item page's read-only sections (attributes, metadata, trade history), rendered by the loader only: their code
 * never ships to the browser (components/server-html.tsx), which leaves the page's script budget to its forms.
 */
import { Section } from "~/components/page";
import { TableHead } from "~/components/table-head";
import type { itemView } from "~/features/market/market-views.server";
import { serverHtml } from "~/services/server-html.server";

type ItemView = ReturnType<typeof itemView>;
export type ItemSectionsView = Pick<ItemView, "tokenId" | "metadataSource" | "metadata" | "named" | "stats" | "history">;

const METADATA_FROM_CHAIN = "Read from this token’s metadata: the address its contract gives (tokenURI), fetched just now.";
const METADATA_FAILED_NOTICE =
  "This token’s metadata could not be read from the chain just now, so this shows the market’s copy, which may be behind an upgrade.";

function MetadataList({ traits }: { traits: { name: string; value: string }[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
      {traits.map((trait) => (
        <div key={trait.name} className="flex justify-between gap-3 border-b border-space-800 py-1">
          <dt className="text-slate-300">{trait.name}</dt>
          <dd className="text-white">{trait.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The market's attributes of the item, with a ship's stats table. */
function MarketAttributes({ item }: { item: ItemSectionsView }) {
  return (
    <>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {item.named.map((attribute) => (
          <div key={attribute.label} className="flex justify-between gap-3 border-b border-space-800 py-1">
            <dt className="text-slate-300">{attribute.label}</dt>
            <dd className="text-white">{attribute.value}</dd>
          </div>
        ))}
      </dl>
      {item.stats && (
        <table className="mt-4 w-full max-w-sm text-sm">
          <caption className="mb-1 text-left font-semibold text-white">Spaceship stats</caption>
          <tbody>
            {item.stats.rows.map((row) => (
              <tr key={row.label} className="border-b border-space-800">
                <th scope="row" className="py-1 text-left font-normal text-slate-300">
                  {row.label}
                </th>
                <td className="py-1 text-right text-white">{row.value}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" className="py-1 text-left font-semibold text-white">
                Total
              </th>
              <td className="py-1 text-right font-semibold text-white">{item.stats.total}</td>
            </tr>
          </tbody>
        </table>
      )}
    </>
  );
}

function ItemSections({ item }: { item: ItemSectionsView }) {
  return (
    <>
      <Section title="Attributes" id="attributes">
        {item.metadataSource === "failed" && (
          <p role="status" className="mb-3 rounded-lg border border-spark-600 bg-space-900 px-4 py-3 text-sm text-slate-100">
            {METADATA_FAILED_NOTICE}
          </p>
        )}
        {item.metadataSource === "chain" ? (
          <>
            <p className="muted mb-2 text-sm">{METADATA_FROM_CHAIN}</p>
            <MetadataList traits={item.metadata} />
          </>
        ) : (
          <MarketAttributes item={item} />
        )}
        {item.stats && (
          <p className="mt-3 text-sm">
            <a href={`/spaceship/detail?tokenId=${item.tokenId}`}>Power, duration, slots and history of this ship</a>
          </p>
        )}
      </Section>

      {item.metadataSource !== "chain" && item.metadata.length > 0 && (
        <Section title="Metadata" id="metadata">
          <MetadataList traits={item.metadata} />
        </Section>
      )}

      <Section title="History" id="history">
        {item.history.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <TableHead columns={["Event", "Price", "From", "To", "When"]} />
              <tbody>
                {item.history.map((event) => (
                  <tr key={event.key} className="border-t border-space-800 text-white">
                    <td className="py-1 pr-3">{event.event}</td>
                    <td className="py-1 pr-3">{event.price}</td>
                    <td className="py-1 pr-3 font-mono text-xs">{event.from}</td>
                    <td className="py-1 pr-3 font-mono text-xs">{event.to ?? "—"}</td>
                    <td className="py-1">{event.at}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">No trades yet.</p>
        )}
      </Section>
    </>
  );
}

/** The sections' markup, for the page's ServerHtml. */
export function itemSectionsHtml(item: ItemSectionsView): string {
  return serverHtml(<ItemSections item={item} />);
}
