// Every back-office route in one place (bulletproof-react's paths.ts): the
// patterns the router matches and the addresses links go to. The router's
// basename is `/admin`, so these are below it; the server answers every
// `/admin/…` address with the one page (decision 017).

export const BASENAME = '/admin';

export const routes = {
  signIn: '/sign-in/',
  setup: '/setup/',
  dashboard: '/',
  sessions: '/sessions/',
  newSession: '/sessions/new/',
  session: '/sessions/:id/',
  roster: '/sessions/:id/roster/',
  readiness: '/sessions/:id/roster/:enrollmentId/',
  orders: '/orders/',
  order: '/orders/:id/',
  onlineOrders: '/orders/online/',
  onlineOrder: '/orders/online/:id/',
  learners: '/orders/online/learners/:course/',
  plans: '/plans/',
  codes: '/codes/',
  newCode: '/codes/new/',
  code: '/codes/:code/',
  upsells: '/upsells/',
  upsell: '/upsells/:priceId/',
  enquiries: '/enquiries/',
  enquiry: '/enquiries/:id/',
  feedback: '/feedback/',
  exports: '/exports/',
  staff: '/staff/',
  audit: '/audit/',
  content: '/content/',
  newContent: '/content/new/:kind/',
  contentDocument: '/content/:kind/:key/',
  media: '/media/',
  courseFiles: '/media/course-files/',
  courseMaterials: '/courses/:id/materials/',
  mediaItem: '/media/:key/',
  recoveryCodes: '/recovery-codes/',
} as const;

/** The address of a route with one parameter, the value encoded. */
const withParam = (pattern: string) => (value: string) => pattern.replace(/:\w+/, encodeURIComponent(value));

/** The address of a route with two parameters, in order. */
const withParams = (pattern: string) => (first: string, second: string) => withParam(withParam(pattern)(first))(second);

export const paths = {
  ...routes,
  session: withParam(routes.session),
  roster: withParam(routes.roster),
  readiness: withParams(routes.readiness),
  order: withParam(routes.order),
  onlineOrder: withParam(routes.onlineOrder),
  learners: withParam(routes.learners),
  code: withParam(routes.code),
  upsell: withParam(routes.upsell),
  enquiry: withParam(routes.enquiry),
  newContent: withParam(routes.newContent),
  contentDocument: withParams(routes.contentDocument),
  mediaItem: withParam(routes.mediaItem),
  courseMaterials: withParam(routes.courseMaterials),
};
