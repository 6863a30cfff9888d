import { Field } from '../../components/ui/field';
import type { FieldBinding } from '../../components/ui/use-form';
import type { SandboxCard } from '../../generated/SandboxCard';
import { formatMoney } from '../../lib/money';
import { CARD_FIELDS, type CardField } from './checkout-rules';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../lib/payment-methods';

export const EMPTY_CARD: SandboxCard = { number: '', expiry: '', cvc: '' };

const CARD_INPUTS: Record<CardField, { label: string; autoComplete: string; numeric: boolean }> = {
  number: { label: 'Card number', autoComplete: 'cc-number', numeric: true },
  expiry: { label: 'Expiry (MM / YY)', autoComplete: 'cc-exp', numeric: false },
  cvc: { label: 'Security code', autoComplete: 'cc-csc', numeric: true },
};

/**
 * The sandbox gateway's payment element: what Stripe's Payment Element is in
 * production, without money. Test cards decide a card's outcome; Klarna and
 * Clearpay are approved or denied on the sandbox's own page.
 */
export function SandboxPaymentElement({ idPrefix, methods, method, onMethodChange, field, total }: {
  idPrefix: string;
  methods: PaymentMethod[];
  method: PaymentMethod;
  onMethodChange: (method: PaymentMethod) => void;
  /** The card's fields, kept by the checkout's form. */
  field: (name: CardField) => FieldBinding;
  /** The full total, which a buy-now-pay-later method pays. */
  total: number;
}) {
  const provider = PAYMENT_METHOD_LABELS[method];
  return (
    <div className="payment-element">
      <p className="sandbox-badge">Sandbox: no real money moves</p>
      <fieldset className="field segmented">
        <legend>Payment method</legend>
        {methods.map((option) => (
          <label key={option}>
            <input
              type="radio"
              name={`${idPrefix}-method`}
              value={option}
              checked={option === method}
              onChange={() => onMethodChange(option)}
            />
            {PAYMENT_METHOD_LABELS[option]}
          </label>
        ))}
      </fieldset>
      {method === 'card' ? (
        <>
          {CARD_FIELDS.map((name) => (
            <Field
              key={name}
              {...field(name)}
              label={CARD_INPUTS[name].label}
              autoComplete={CARD_INPUTS[name].autoComplete}
              inputMode={CARD_INPUTS[name].numeric ? 'numeric' : undefined}
              required
            />
          ))}
          <div className="form-note">
            <p>Sandbox test cards:</p>
            <ul>
              <li>4242 4242 4242 4242: payment succeeds</li>
              <li>4000 0000 0000 0002: card declined</li>
              <li>4000 0000 0000 9995: insufficient funds</li>
            </ul>
            <p>Any future expiry date and any three digits as the security code.</p>
          </div>
        </>
      ) : (
        <p className="form-note">
          {`${provider} pays the college the full ${formatMoney(total)} and you repay ${provider} in instalments. ` +
            `You approve the payment on ${provider}'s page.`}
        </p>
      )}
    </div>
  );
}
