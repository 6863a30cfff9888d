import { formatMoney } from '../lib/money';

/** A price, with any was-price struck through before it. */
export function Price({ price, wasPrice, className = 'price' }: { price: number; wasPrice: number | null; className?: string }) {
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
        {formatMoney(price)}
      </span>
    </p>
  );
}
