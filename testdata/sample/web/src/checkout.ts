import { api } from "./api";

/** A line of the cart as the API returns it. */
export interface CartLine {
  sku: string;
  quantity: number;
  priceCents: number;
}

/** Thrown when the user checks out an empty cart. */
export class EmptyCartError extends Error {
  constructor() {
    super("Your cart is empty");
    this.name = "EmptyCartError";
  }
}

/** Formats cents as a price in euros. */
export function formatPrice(cents: number): string {
  return (cents / 100).toLocaleString("de-DE", { style: "currency", currency: "EUR" });
}

/** Sends the cart to the checkout endpoint and returns the receipt id. */
export async function checkout(cartId: string, lines: CartLine[]): Promise<string> {
  if (lines.length === 0) {
    throw new EmptyCartError();
  }
  const res = await api.post(`/carts/${cartId}/checkout`, { lines });
  if (res.status === 409) {
    throw new Error(`checkout conflict for cart ${cartId}`);
  }
  return res.data.receipt as string;
}
