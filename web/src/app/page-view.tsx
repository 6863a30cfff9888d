import type { PageEnvelope } from '../generated/PageEnvelope';
import { AccountPage } from '../features/account/account-page';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { SignInPage } from '../features/auth/sign-in-page';
import { SignUpPage } from '../features/auth/sign-up-page';
import { VerifyEmailPage } from '../features/auth/verify-email-page';
import { CalendarPage } from '../features/catalogue/calendar-page';
import { CourseIndexPage } from '../features/catalogue/course-index-page';
import { CoursePage } from '../features/catalogue/course-page';
import { CourseSectionPage } from '../features/catalogue/course-section-page';
import { HomePage } from '../features/catalogue/home-page';
import { OffersPage } from '../features/catalogue/offers-page';
import { PathwayPage } from '../features/catalogue/pathway-page';
import { CheckoutPage } from '../features/checkout/checkout-page';
import { EnrolmentPage } from '../features/checkout/enrolment-page';
import { ArticlePage } from '../features/content/article-page';
import { BlogPage } from '../features/content/blog-page';
import { CareersPage } from '../features/content/careers-page';
import { ContentPage } from '../features/content/content-page';
import { EnquiryForm } from '../features/enquiries/enquiry-form';
import { NotFoundPage } from '../features/content/not-found-page';
import { TeamPage } from '../features/content/team-page';
import { OnlineOrderPage } from '../features/online-checkout/online-order-page';

// QuickJS has no URLSearchParams; the server has already checked the value.
function sortOf(path: string): string {
  const match = /[?&]sort=([a-z-]+)/.exec(path);
  return match?.[1] ?? 'featured';
}

/** The page for the data's kind: the server decides which page a path is. */
export function PageView({ envelope }: { envelope: PageEnvelope }) {
  const { page } = envelope;
  switch (page.kind) {
    case 'home':
      return <HomePage page={page} />;
    case 'courseIndex':
      return <CourseIndexPage page={page} sort={sortOf(envelope.path)} />;
    case 'courseSection':
      return <CourseSectionPage page={page} />;
    case 'course':
      return <CoursePage course={page} />;
    case 'calendar':
      return <CalendarPage page={page} />;
    case 'pathway':
      return <PathwayPage page={page} />;
    case 'team':
      return <TeamPage page={page} />;
    case 'careers':
      return <CareersPage page={page} />;
    case 'blog':
      return <BlogPage page={page} />;
    case 'article':
      return <ArticlePage page={page} />;
    case 'offers':
      return <OffersPage page={page} />;
    case 'onlineOrder':
      return <OnlineOrderPage key={page.orderId} page={page} />;
    case 'checkout':
      return <CheckoutPage page={page} />;
    case 'signIn':
      return <SignInPage page={page} />;
    case 'signUp':
      return <SignUpPage page={page} />;
    case 'verifyEmail':
      return <VerifyEmailPage page={page} />;
    case 'forgotPassword':
      return <ForgotPasswordPage page={page} />;
    case 'resetPassword':
      return <ResetPasswordPage page={page} />;
    case 'account':
      return <AccountPage page={page} />;
    case 'enrolment':
      return <EnrolmentPage key={page.orderId} page={page} />;
    case 'content':
      return <ContentPage page={page} form={page.form && <EnquiryForm kind={page.form} />} />;
    case 'notFound':
      return <NotFoundPage page={page} />;
  }
}
