import { Fragment, lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, Route, useLocation } from 'react-router';
import { PageHeading } from './components/page-heading';
import { AdminLayout } from './layout/admin-layout';
import { Allowed } from './layout/allowed';
import type { Permission } from './lib/api-types';
import { can, sectionsFor } from './lib/permissions';
import { StaffSessionProvider, useStaff } from './lib/staff-session';
import { routes } from './paths';
import { AuditScreen } from './screens/audit/audit-screen';
import { CodeScreen, NewCodeScreen } from './screens/codes/code-screens';
import { CodesScreen } from './screens/codes/codes-screen';
import { DashboardScreen } from './screens/dashboard/dashboard-screen';
import { EnquiriesScreen } from './screens/enquiries/enquiries-screen';
import { EnquiryScreen } from './screens/enquiries/enquiry-screen';
import { ExportsScreen } from './screens/exports/exports-screen';
import { FeedbackScreen } from './screens/feedback/feedback-screen';
import { CourseFilesScreen } from './screens/media/course-files';
import { MediaItemScreen, MediaScreen } from './screens/media/media-library';
import { MaterialsScreen } from './screens/materials/materials-screen';
import { LearnersScreen } from './screens/online-orders/learners-screen';
import { OnlineOrderScreen } from './screens/online-orders/online-order-screen';
import { OnlineOrdersScreen } from './screens/online-orders/online-orders-screen';
import { OrderScreen } from './screens/orders/order-screen';
import { OrdersScreen } from './screens/orders/orders-screen';
import { PlansScreen } from './screens/plans/plans-screen';
import { NewSessionScreen } from './screens/sessions/new-session-screen';
import { ReadinessScreen } from './screens/sessions/readiness-screen';
import { RosterScreen } from './screens/sessions/roster-screen';
import { SessionScreen } from './screens/sessions/session-screen';
import { SessionsScreen } from './screens/sessions/sessions-screen';
import { RecoveryCodesScreen } from './screens/recovery-codes/recovery-codes-screen';
import { SetupScreen } from './screens/setup/setup-screen';
import { SignInScreen } from './screens/sign-in/sign-in-screen';
import { StaffScreen } from './screens/staff/staff-screen';
import { UpsellScreen, UpsellsScreen } from './screens/upsells/upsells-screen';

// The back office's routes, below `/admin/` (decision 017). Each screen
// names the permissions that open it, as the server's route table does. A
// data router serves them, so a form with unsaved changes can hold a
// navigation back (`LeaveGuard`).

/** The dashboard for those who may see it; otherwise the first section the role opens. */
function Home() {
  const staff = useStaff();
  if (can(staff, 'figures')) return <DashboardScreen />;
  const first = sectionsFor(staff)[0];
  if (first) return <Navigate to={first.path} replace />;
  return (
    <>
      <PageHeading>Back office</PageHeading>
      <p>There is nothing in the back office for your role yet.</p>
    </>
  );
}

function NotFound() {
  return (
    <>
      <PageHeading>Page not found</PageHeading>
      <p>There is no such page in the back office. Choose a section above.</p>
    </>
  );
}

const screen = (needs: Permission[], element: ReactNode) => <Allowed needs={needs}>{element}</Allowed>;

/**
 * The screen of one thing (a session, its roster, an order, a code), made
 * afresh for each address: the router keeps a route's element mounted when
 * only its `:id` changes, which would show the last one's answer, form
 * values and saved state under the new one's address.
 */
function OneThing({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Fragment key={pathname}>{children}</Fragment>;
}

const oneThing = (needs: Permission[], element: ReactNode) => screen(needs, <OneThing>{element}</OneThing>);

// The content screens are a chunk of their own, loaded when first opened.
const contentScreens = () => import('./screens/content/content-screens');
const ContentListScreen = lazy(() => contentScreens().then((screens) => ({ default: screens.ContentListScreen })));
const ContentEditorScreen = lazy(() => contentScreens().then((screens) => ({ default: screens.ContentEditorScreen })));
const NewContentScreen = lazy(() => contentScreens().then((screens) => ({ default: screens.NewContentScreen })));
const later = (element: ReactNode) => <Suspense fallback={<p role="status">Loading…</p>}>{element}</Suspense>;

/** Who is signed in, for every screen below. */
function SessionRoot() {
  return (
    <StaffSessionProvider>
      <Outlet />
    </StaffSessionProvider>
  );
}

/** The back office's route tree, for a browser router (main.tsx) or a memory one (the tests). */
export const adminRoutes = (
  <Route element={<SessionRoot />}>
    <Route path={routes.signIn} element={<SignInScreen />} />
    <Route path={routes.setup} element={<SetupScreen />} />
    <Route element={<AdminLayout />}>
      <Route index element={<Home />} />
      <Route path={routes.sessions} element={screen(['sessions', 'rosters'], <SessionsScreen />)} />
      <Route path={routes.newSession} element={screen(['sessions'], <NewSessionScreen />)} />
      <Route path={routes.session} element={oneThing(['sessions'], <SessionScreen />)} />
      <Route path={routes.roster} element={oneThing(['rosters'], <RosterScreen />)} />
      <Route path={routes.readiness} element={oneThing(['readiness'], <ReadinessScreen />)} />
      <Route path={routes.orders} element={screen(['orders'], <OrdersScreen />)} />
      <Route path={routes.order} element={oneThing(['orders'], <OrderScreen />)} />
      <Route path={routes.onlineOrders} element={screen(['orders'], <OnlineOrdersScreen />)} />
      <Route path={routes.onlineOrder} element={oneThing(['orders'], <OnlineOrderScreen />)} />
      <Route path={routes.learners} element={oneThing(['orders'], <LearnersScreen />)} />
      <Route path={routes.plans} element={screen(['orders'], <PlansScreen />)} />
      <Route path={routes.codes} element={screen(['codes'], <CodesScreen />)} />
      <Route path={routes.newCode} element={screen(['codes'], <NewCodeScreen />)} />
      <Route path={routes.code} element={oneThing(['codes'], <CodeScreen />)} />
      <Route path={routes.upsells} element={screen(['codes'], <UpsellsScreen />)} />
      <Route path={routes.upsell} element={oneThing(['codes'], <UpsellScreen />)} />
      <Route path={routes.media} element={screen(['content'], <MediaScreen />)} />
      <Route path={routes.courseFiles} element={screen(['content'], <CourseFilesScreen />)} />
      <Route path={routes.mediaItem} element={oneThing(['content'], <MediaItemScreen />)} />
      <Route path={routes.courseMaterials} element={oneThing(['content'], <MaterialsScreen />)} />
      <Route path={routes.enquiries} element={screen(['enquiries'], <EnquiriesScreen />)} />
      <Route path={routes.enquiry} element={oneThing(['enquiries'], <EnquiryScreen />)} />
      <Route path={routes.feedback} element={screen(['rosters'], <FeedbackScreen />)} />
      <Route path={routes.content} element={screen(['content'], later(<ContentListScreen />))} />
      <Route path={routes.newContent} element={screen(['content'], later(<NewContentScreen />))} />
      <Route path={routes.contentDocument} element={screen(['content'], later(<ContentEditorScreen />))} />
      <Route path={routes.exports} element={screen(['figures'], <ExportsScreen />)} />
      <Route path={routes.staff} element={screen(['manage_staff'], <StaffScreen />)} />
      <Route path={routes.audit} element={screen(['audit'], <AuditScreen />)} />
      <Route path={routes.recoveryCodes} element={<RecoveryCodesScreen />} />
      <Route path="*" element={<NotFound />} />
    </Route>
  </Route>
);
