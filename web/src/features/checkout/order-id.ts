/**
 * The key under which the browser keeps the id of its pending order (local
 * storage), so a retry replaces that order rather than making another. A
 * module of its own: the waiting list's pages write it without loading the
 * checkout's code.
 */
export const ORDER_ID_KEY = 'orderId';
