import type { OnlineCourse, SelectedCourse } from '../lib/basket-items';

// One course of each basket (docs/product.md#baskets), as the
// browser stores them.

const image = { url: '/media/x.svg', alt: '', width: 10, height: 10 };
export const inPerson: SelectedCourse = {
  courseId: 'c1', title: 'Dermal Fillers', url: '/courses/injectables/dermal-fillers/', image, price: 125000, wasPrice: null,
  isPackage: false, includeKit: false, selectedEvent: { id: 's1', date: '2026-12-15', type: 'onsite', price: 125000 },
};
export const online: OnlineCourse = {
  courseId: 'c2', title: 'Chemical Peels Online', url: '/courses/elearning/chemical-peels-online/', image,
  pricingId: 'price_1', unitAmount: 19900, wasPrice: 29900, upsell: null, upsellAdded: false,
};

