// The server sends a buyer who cancels on the payment page back with
// `?checkout=cancelled`. QuickJS has no URLSearchParams, and the shell
// renders on the server too.
const CHECKOUT_CANCELLED = /[?&]checkout=cancelled(?:&|$)/;

export function returnedCancelled(search: string): boolean {
  return CHECKOUT_CANCELLED.test(search);
}
