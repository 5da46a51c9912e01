/**
 * The card store (docs/api/sso.md "Store"): card orders, their payments and the delivery of paid boxes. Its routes
 * (store-routes.ts) are mounted by service.ts only.
 */
export { createCardOrders } from "./card-orders";
export { createBoxDelivery, type BoxDelivery } from "./store-delivery";
export { createDeliveryWorker, type DeliveryWorker } from "./store-fulfilment";
export { createStorePayments } from "./store-payments";
