import { formatMoney } from '../lib/money';

/**
 * A price, with any was-price struck through before it; `from` when some
 * dates cost more (decision 019: a course shows what its dates charge).
 */
export function Price({ price, wasPrice, from = false, className = 'price' }: { price: number; wasPrice: number | null; from?: boolean; className?: string }) {
  return (
    <p className={className}>
      {wasPrice !== null && wasPrice > price && (
        <>
          <s className="was-price">
            <span className="visually-hidden">Was </span>
            {formatMoney(wasPrice)}
          </s>{' '}
        </>
      )}
      <span className="now-price">
        {wasPrice !== null && wasPrice > price && <span className="visually-hidden">Now </span>}
        {from && 'From '}
        {formatMoney(price)}
      </span>
    </p>
  );
}
