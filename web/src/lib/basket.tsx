import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { readList, removeItem, writeJson } from './storage';
import {
  isOnlineCourse, isSelectedCourse, ONLINE_COURSES_KEY, SELECTED_COURSES_KEY,
  type OnlineCourse, type SelectedCourse,
} from './basket-items';

interface Basket {
  selectedCourses: SelectedCourse[];
  onlineCourses: OnlineCourse[];
  /** The online basket drawer is open. */
  onlineBasket: boolean;
  /** Restored from browser storage (never true during server rendering). */
  restored: boolean;
  addCourses: (courses: SelectedCourse[]) => void;
  removeCourse: (eventId: string | null) => void;
  /** The checkout's changes: another date, the kit, or the catalogue's answer. */
  replaceCourses: (courses: SelectedCourse[]) => void;
  /** Once an enrolment is paid: clears the selected courses in memory and storage. */
  emptyBasket: () => void;
  addOnlineCourse: (course: OnlineCourse) => void;
  removeOnlineCourse: (url: string) => void;
  /** Adds or takes away the upsell offered with the online course at `url`. */
  toggleUpsell: (url: string) => void;
  /** Once an online order is paid: clears the online basket in memory and storage. */
  emptyOnlineBasket: () => void;
  /** Sign-out clears all state: both baskets, in memory and storage, and the drawer closes. */
  emptyBaskets: () => void;
  setOnlineBasket: (open: boolean) => void;
}

const BasketContext = createContext<Basket | null>(null);

export function useBasket(): Basket {
  const basket = useContext(BasketContext);
  if (!basket) throw new Error('useBasket must be used inside BasketProvider');
  return basket;
}

/**
 * The two baskets (docs/product.md#baskets). Both live in session storage; they are restored
 * after hydration so the server's HTML (which knows no basket) matches.
 */
export function BasketProvider({ children }: { children: ReactNode }) {
  const [selectedCourses, setSelectedCourses] = useState<SelectedCourse[]>([]);
  const [onlineCourses, setOnlineCourses] = useState<OnlineCourse[]>([]);
  const [onlineBasket, setOnlineBasket] = useState(false);
  const [restored, setRestored] = useState(false);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the baskets are the browser's: restored after hydration, so the first render matches the server's
    setSelectedCourses(readList('session', SELECTED_COURSES_KEY, isSelectedCourse));
    setOnlineCourses(readList('session', ONLINE_COURSES_KEY, isOnlineCourse));
    setRestored(true);
  }, []);

  const addCourses = useCallback((courses: SelectedCourse[]) => {
    setSelectedCourses((current) => {
      const next = [...current, ...courses];
      writeJson('session', SELECTED_COURSES_KEY, next);
      return next;
    });
  }, []);

  // Removes the first item whose event id matches, or empties the basket
  // when only one item remains.
  const removeCourse = useCallback((eventId: string | null) => {
    setSelectedCourses((current) => {
      let next: SelectedCourse[] = [];
      if (current.length > 1) {
        const index = current.findIndex((course) => (course.selectedEvent?.id ?? null) === eventId);
        next = index < 0 ? current : current.filter((_, i) => i !== index);
      }
      writeJson('session', SELECTED_COURSES_KEY, next);
      return next;
    });
  }, []);

  const replaceCourses = useCallback((courses: SelectedCourse[]) => {
    setSelectedCourses(courses);
    writeJson('session', SELECTED_COURSES_KEY, courses);
  }, []);

  const emptyBasket = useCallback(() => {
    setSelectedCourses([]);
    removeItem('session', SELECTED_COURSES_KEY);
  }, []);

  // Every change to the online basket is saved as it is made.
  const changeOnlineCourses = useCallback((change: (current: OnlineCourse[]) => OnlineCourse[]) => {
    setOnlineCourses((current) => {
      const next = change(current);
      if (next !== current) writeJson('session', ONLINE_COURSES_KEY, next);
      return next;
    });
  }, []);

  const addOnlineCourse = useCallback(
    (course: OnlineCourse) =>
      changeOnlineCourses((current) => (current.some((c) => c.url === course.url) ? current : [...current, course])),
    [changeOnlineCourses],
  );

  const removeOnlineCourse = useCallback(
    (url: string) => changeOnlineCourses((current) => current.filter((c) => c.url !== url)),
    [changeOnlineCourses],
  );

  const toggleUpsell = useCallback(
    (url: string) =>
      changeOnlineCourses((current) =>
        current.map((c) => (c.url === url && c.upsell ? { ...c, upsellAdded: !c.upsellAdded } : c)),
      ),
    [changeOnlineCourses],
  );

  const emptyOnlineBasket = useCallback(() => {
    setOnlineCourses([]);
    removeItem('session', ONLINE_COURSES_KEY);
  }, []);

  const emptyBaskets = useCallback(() => {
    emptyBasket();
    emptyOnlineBasket();
    setOnlineBasket(false);
  }, [emptyBasket, emptyOnlineBasket]);

  const value = useMemo(
    () => ({
      selectedCourses, onlineCourses, onlineBasket, restored,
      addCourses, removeCourse, replaceCourses, emptyBasket,
      addOnlineCourse, removeOnlineCourse, toggleUpsell, emptyOnlineBasket, emptyBaskets, setOnlineBasket,
    }),
    [
      selectedCourses, onlineCourses, onlineBasket, restored, addCourses, removeCourse, replaceCourses, emptyBasket,
      addOnlineCourse, removeOnlineCourse, toggleUpsell, emptyOnlineBasket, emptyBaskets,
    ],
  );
  return <BasketContext.Provider value={value}>{children}</BasketContext.Provider>;
}
