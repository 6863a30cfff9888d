import { useEffect, useState } from 'react';
import { Link, useNavigate } from '../../lib/router';
import { AccountForm } from '../../components/account-form';
import { Field } from '../../components/ui/field';
import { useForm } from '../../components/ui/use-form';
import type { AccountFormPage } from '../../generated/AccountFormPage';
import type { CourseStartLink } from '../../generated/CourseStartLink';
import type { CourseStarted } from '../../generated/CourseStarted';
import { COURSE_START_FIELDS, MIN_PASSWORD, validateCourseStart } from '../../lib/account-rules';
import { ApiError, postJson } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { useLinkToken } from '../../lib/use-link-token';

const CHECK_PATH = '/api/auth/course-start/check';
const START_PATH = '/api/auth/course-start';
const UNREACHABLE = 'We could not reach the college. Please check your connection and reload the page.';

type LinkState = { status: 'checking' } | { status: 'live'; link: CourseStartLink } | { status: 'dead'; message: string };

const WAYS_IN = (
  <p className="account-form-switch">
    <Link to="/sign-in/">Sign in</Link> or <Link to="/forgot-password/">ask for a password link</Link>: your course is in your
    account.
  </p>
);

/**
 * /start-course/?token=…, the link mailed with an online order to a buyer
 * without an account (decision 025). It says which course and address it
 * is for, asks the names for the certificate and a password, then signs
 * the buyer in and opens the course. A link used or expired says how else
 * to get in.
 */
export function StartCoursePage({ page }: { page: AccountFormPage }) {
  const token = useLinkToken();
  const [state, setState] = useState<LinkState>({ status: 'checking' });

  useEffect(() => {
    if (!token) return;
    let current = true;
    postJson<CourseStartLink>(CHECK_PATH, { token }).then(
      (link) => current && setState({ status: 'live', link }),
      (error: unknown) => current && setState({ status: 'dead', message: error instanceof ApiError ? error.message : UNREACHABLE }),
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (token === null || state.status === 'dead') {
    return (
      <div className="container account-form">
        <h1>{page.heading}</h1>
        <p role="alert" className="form-error">
          {state.status === 'dead' ? state.message : 'This link is not complete. Please open the link in your email again.'}
        </p>
        {WAYS_IN}
      </div>
    );
  }
  if (token === undefined || state.status === 'checking') {
    return (
      <div className="container account-form">
        <h1>{page.heading}</h1>
        <p role="status">Checking your link...</p>
      </div>
    );
  }
  return <StartCourseForm heading={page.heading} token={token} link={state.link} />;
}

function StartCourseForm({ heading, token, link }: { heading: string; token: string; link: CourseStartLink }) {
  const { refreshSession } = useAuth();
  const navigate = useNavigate();
  const form = useForm({
    fields: COURSE_START_FIELDS,
    initial: { first_name: link.firstName, last_name: link.lastName, password: '' },
    validate: validateCourseStart,
    send: async (details) => {
      const started = await postJson<CourseStarted>(START_PATH, { token, ...details });
      await refreshSession();
      navigate(started.courseUrl);
    },
  });
  return (
    <AccountForm
      heading={heading}
      form={form}
      action="Starting your course"
      submit="Start my course"
      sending="Setting up your account..."
      intro={
        <p>
          {`Your place on ${link.courseTitle} is ready. Choose a password for ${link.email}: you sign in with it to study on any device. `}
          Your name appears on your certificate as you give it here.
        </p>
      }
      footer={WAYS_IN}
    >
      <input type="email" name="username" autoComplete="username" value={link.email} readOnly hidden />
      <Field {...form.field('first_name')} label="First name" autoComplete="given-name" required />
      <Field {...form.field('last_name')} label="Last name" autoComplete="family-name" required />
      <Field
        {...form.field('password')} label="Password" type="password" autoComplete="new-password" required
        hint={`At least ${MIN_PASSWORD} characters`}
      />
    </AccountForm>
  );
}
