import { useId, useState, type FormEvent } from 'react';
import type { EnquiryInput } from '../../generated/EnquiryInput';
import type { EnquiryKind } from '../../generated/EnquiryKind';
import { ApiError, failureMessage, postJson } from '../../lib/api';
import { isRequired, validateEnquiry, type EnquiryField, type FieldErrors } from './enquiry-rules';

interface FieldSpec {
  name: EnquiryField;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'textarea' | 'select';
  autoComplete?: string;
  options?: string[];
}

const TREATMENTS = [
  'Anti-wrinkle injections', 'Dermal fillers', 'Lip fillers', 'Skin boosters', 'Microneedling',
  'Chemical peel', 'Laser hair removal', 'PDO threads', 'Hair colour and cutting', 'Lash lift and tint',
];

const FIELDS: Record<EnquiryKind, { title: string; submit: string; success: string; fields: FieldSpec[] }> = {
  contact: {
    title: 'Send us a message',
    submit: 'Send message',
    success: 'Thank you. Your message is with our admissions team and we will reply within one working day.',
    fields: [
      { name: 'name', label: 'Your name', autoComplete: 'name' },
      { name: 'email', label: 'Email address', type: 'email', autoComplete: 'email' },
      { name: 'phone', label: 'Phone number', type: 'tel', autoComplete: 'tel' },
      { name: 'message', label: 'Your message', type: 'textarea' },
    ],
  },
  callback: {
    title: 'Request a callback',
    submit: 'Request a callback',
    success: 'Thank you. A course adviser will call you back, usually within 2 working hours.',
    fields: [
      { name: 'name', label: 'Your name', autoComplete: 'name' },
      { name: 'phone', label: 'Phone number', type: 'tel', autoComplete: 'tel' },
      { name: 'email', label: 'Email address', type: 'email', autoComplete: 'email' },
      { name: 'bestTime', label: 'Best time to call', type: 'select', options: ['Any time', 'Morning', 'Afternoon', 'Evening'] },
      { name: 'course', label: 'Course you are interested in' },
    ],
  },
  business: {
    title: 'Tell us about your team',
    submit: 'Send enquiry',
    success: 'Thank you. Our business training team will be in touch within one working day.',
    fields: [
      { name: 'company', label: 'Company', autoComplete: 'organization' },
      { name: 'name', label: 'Your name', autoComplete: 'name' },
      { name: 'email', label: 'Work email address', type: 'email', autoComplete: 'email' },
      { name: 'phone', label: 'Phone number', type: 'tel', autoComplete: 'tel' },
      { name: 'message', label: 'What training does your team need?', type: 'textarea' },
    ],
  },
  models: {
    title: 'Become a model',
    submit: 'Sign up as a model',
    success: 'Thank you for signing up. We will contact you when a training day needs models for your treatment.',
    fields: [
      { name: 'name', label: 'Your name', autoComplete: 'name' },
      { name: 'email', label: 'Email address', type: 'email', autoComplete: 'email' },
      { name: 'phone', label: 'Phone number', type: 'tel', autoComplete: 'tel' },
      { name: 'treatment', label: 'Treatment you would like', type: 'select', options: TREATMENTS },
      { name: 'message', label: 'Anything we should know? (optional)', type: 'textarea' },
    ],
  },
};

const EMPTY: EnquiryInput = { name: '', email: '', phone: '', company: '', message: '', treatment: '', bestTime: '', course: '' };

type Status = { kind: 'editing' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed'; message: string };

/** The enquiry forms of the contact, callback, business and models pages. */
export function EnquiryForm({ kind }: { kind: EnquiryKind }) {
  const spec = FIELDS[kind];
  const id = useId();
  const [values, setValues] = useState<EnquiryInput>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'editing' });
  const fieldId = (name: EnquiryField) => `${id}-${name}`;

  function focusFirstError(found: FieldErrors) {
    const first = spec.fields.find((f) => found[f.name]);
    if (first) document.getElementById(fieldId(first.name))?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateEnquiry(kind, values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(found);
      return;
    }
    setStatus({ kind: 'sending' });
    try {
      await postJson(`/api/enquiries/${kind}`, values);
      setStatus({ kind: 'sent' });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        const fields = error.fields as FieldErrors;
        setErrors(fields);
        setStatus({ kind: 'editing' });
        focusFirstError(fields);
      } else {
        setStatus({ kind: 'failed', message: failureMessage(error, 'Your message could not be sent. Please try again, or call us.') });
      }
    }
  }

  if (status.kind === 'sent') {
    return (
      <section className="enquiry-form enquiry-sent" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Thank you</h2>
        <p role="status">{spec.success}</p>
      </section>
    );
  }

  return (
    <section className="enquiry-form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{spec.title}</h2>
      <noscript>
        <p>This form needs JavaScript. You can also email or call us using the details at the foot of the page.</p>
      </noscript>
      <form noValidate onSubmit={submit}>
        {spec.fields.map((field) => {
          const error = errors[field.name];
          const required = isRequired(kind, field.name);
          const common = {
            id: fieldId(field.name),
            name: field.name,
            value: values[field.name],
            required,
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? `${fieldId(field.name)}-error` : undefined,
            onChange: (event: { target: { value: string } }) => {
              setValues((v) => ({ ...v, [field.name]: event.target.value }));
              if (error) setErrors((e) => ({ ...e, [field.name]: undefined }));
            },
          };
          return (
            <div key={field.name} className={error ? 'field has-error' : 'field'}>
              <label htmlFor={common.id}>
                {field.label}
                {required && <span aria-hidden="true"> *</span>}
              </label>
              {error && <p id={`${common.id}-error`} className="field-error">{error}</p>}
              {field.type === 'textarea' ? (
                <textarea {...common} rows={5} />
              ) : field.type === 'select' ? (
                <select {...common}>
                  <option value="">Please choose</option>
                  {field.options?.map((option) => <option key={option} value={option}>{option}</option>)}
                </select>
              ) : (
                <input {...common} type={field.type ?? 'text'} autoComplete={field.autoComplete} />
              )}
            </div>
          );
        })}
        {status.kind === 'failed' && <p className="form-error" role="alert">{status.message}</p>}
        <button type="submit" className="button" disabled={status.kind === 'sending'}>
          {status.kind === 'sending' ? 'Sending...' : spec.submit}
        </button>
        <p className="form-note">Fields marked * are required. We use your details only to answer your enquiry.</p>
      </form>
    </section>
  );
}
