import { Field } from '../../components/ui/field';
import { FormMessage } from '../../components/ui/form-message';
import { useForm } from '../../components/ui/use-form';
import type { EnquiryInput } from '../../generated/EnquiryInput';
import type { EnquiryKind } from '../../generated/EnquiryKind';
import { failureMessage, postJson } from '../../lib/api';
import { enquiryConversion, trackConversion } from '../../lib/conversions';
import { isRequired, validateEnquiry, type EnquiryField } from './enquiry-rules';

interface FieldSpec {
  name: EnquiryField;
  label: string;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  options?: string[];
  multiline?: boolean;
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
      { name: 'message', label: 'Your message', multiline: true },
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
      { name: 'bestTime', label: 'Best time to call', options: ['Any time', 'Morning', 'Afternoon', 'Evening'] },
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
      { name: 'message', label: 'What training does your team need?', multiline: true },
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
      { name: 'treatment', label: 'Treatment you would like', options: TREATMENTS },
      { name: 'message', label: 'Anything we should know? (optional)', multiline: true },
    ],
  },
};

const EMPTY: EnquiryInput = { name: '', email: '', phone: '', company: '', message: '', treatment: '', bestTime: '', course: '' };

const NOT_SENT = 'Your message could not be sent. Please try again, or call us.';

/** The enquiry forms of the contact, callback, business and models pages. */
export function EnquiryForm({ kind }: { kind: EnquiryKind }) {
  const spec = FIELDS[kind];
  const form = useForm<EnquiryField>({
    fields: spec.fields.map((field) => field.name),
    initial: EMPTY,
    validate: (values) => validateEnquiry(kind, values),
    send: async (values) => {
      await postJson(`/api/enquiries/${kind}`, values);
      trackConversion(enquiryConversion(kind));
    },
    failure: (error) => failureMessage(error, NOT_SENT),
  });
  const titleId = `${form.id}-title`;

  if (form.status === 'sent') {
    return (
      <section className="enquiry-form enquiry-sent" aria-labelledby={titleId}>
        <h2 id={titleId}>Thank you</h2>
        <p role="status">{spec.success}</p>
      </section>
    );
  }

  return (
    <section className="enquiry-form" aria-labelledby={titleId}>
      <h2 id={titleId}>{spec.title}</h2>
      <noscript>
        <p>This form needs JavaScript. You can also email or call us using the details at the foot of the page.</p>
      </noscript>
      <form noValidate onSubmit={form.submit}>
        {spec.fields.map(({ name, ...input }) => (
          <Field key={name} {...form.field(name)} {...input} required={isRequired(kind, name)} />
        ))}
        <FormMessage form={form} />
        <button type="submit" className="button" disabled={form.status === 'sending'}>
          {form.status === 'sending' ? 'Sending...' : spec.submit}
        </button>
        <p className="form-note">Fields marked * are required. We use your details only to answer your enquiry.</p>
      </form>
    </section>
  );
}
