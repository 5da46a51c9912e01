import type { Migration } from "../../db/migrate";
import { up as core } from "./market_001_core";
import { up as signedOrders } from "./market_002_signed_orders";
import { up as currencyPricePaths } from "./market_003_currency_price_paths";
import { up as listingGeneration } from "./market_004_listing_generation";
import { up as chainCursors } from "./market_005_chain_cursors";
import { up as gameTokenIds } from "./market_006_game_token_ids";
import { up as bridgeEvents } from "./market_007_bridge_events";
import { up as claimRequestKeys } from "./market_008_claim_request_keys";
import { up as materialsEvents } from "./market_009_materials_events";
import { up as itemChainBlock } from "./market_010_item_chain_block";
import { up as pageGeneration } from "./market_011_page_generation";
import { up as cursorBlockTime } from "./market_012_cursor_block_time";
import { up as dropPricePathsWithoutCurrency } from "./market_013_drop_price_paths_without_currency";
import { up as sequences } from "./market_014_sequences";
import { up as splitPageGeneration } from "./market_015_split_page_generation";
import { up as itemsEvents } from "./market_016_items_events";
import { up as chainListings } from "./market_017_chain_listings";
import { up as awards } from "./market_018_awards";
import { up as watches } from "./market_019_watches";
import { up as saleDays } from "./market_020_sale_days";
import { up as offers } from "./market_021_offers";
import { up as chainOffers } from "./market_022_chain_offers";
import { up as offerSales } from "./market_024_offer_sales";
import { up as mutationEvents } from "./market_025_mutation_events";
import { up as stackAmountsText } from "./market_026_stack_amounts_text";
import { up as watchAlertsPerListing } from "./market_027_watch_alerts_per_listing";
import { up as offerPageGeneration } from "./market_028_offer_page_generation";
import { up as countersWithoutAHotRow } from "./market_029_counters_without_a_hot_row";

/** In the order they run; a name, once released, never changes (databases record it). */
export const marketMigrations: Migration[] = [
  { name: "market_001_core", up: core },
  { name: "market_002_signed_orders", up: signedOrders },
  { name: "market_003_currency_price_paths", up: currencyPricePaths },
  { name: "market_004_listing_generation", up: listingGeneration },
  { name: "market_005_chain_cursors", up: chainCursors },
  { name: "market_006_game_token_ids", up: gameTokenIds },
  { name: "market_007_bridge_events", up: bridgeEvents },
  { name: "market_008_claim_request_keys", up: claimRequestKeys },
  { name: "market_009_materials_events", up: materialsEvents },
  { name: "market_010_item_chain_block", up: itemChainBlock },
  { name: "market_011_page_generation", up: pageGeneration },
  { name: "market_012_cursor_block_time", up: cursorBlockTime },
  { name: "market_013_drop_price_paths_without_currency", up: dropPricePathsWithoutCurrency },
  { name: "market_014_sequences", up: sequences },
  { name: "market_015_split_page_generation", up: splitPageGeneration },
  { name: "market_016_items_events", up: itemsEvents },
  { name: "market_017_chain_listings", up: chainListings },
  { name: "market_018_awards", up: awards },
  { name: "market_019_watches", up: watches },
  { name: "market_020_sale_days", up: saleDays },
  { name: "market_021_offers", up: offers },
  { name: "market_022_chain_offers", up: chainOffers },
  { name: "market_024_offer_sales", up: offerSales },
  { name: "market_025_mutation_events", up: mutationEvents },
  { name: "market_026_stack_amounts_text", up: stackAmountsText },
  { name: "market_027_watch_alerts_per_listing", up: watchAlertsPerListing },
  { name: "market_028_offer_page_generation", up: offerPageGeneration },
  { name: "market_029_counters_without_a_hot_row", up: countersWithoutAHotRow },
];
