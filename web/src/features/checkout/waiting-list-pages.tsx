import { useState } from 'react';
import { Link, useNavigate } from '../../lib/router';
import type { WaitingListClaimPage as ClaimData } from '../../generated/WaitingListClaimPage';
import type { WaitingListConfirmPage as ConfirmData } from '../../generated/WaitingListConfirmPage';
import type { WaitingListLeavePage as LeaveData } from '../../generated/WaitingListLeavePage';
import { postJson } from '../../lib/api';
import { useBasket } from '../../lib/basket';
import { formatSessionDate, formatTime } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { sessionTypeLabel } from '../../lib/sessions';
import { writeText } from '../../lib/storage';
import { useAction } from '../../lib/use-action';
import { ORDER_ID_KEY } from './order-id';

// The pages of the waiting lists' mails (docs/product.md#waiting-lists). A claim turns the offer
// into a booking that holds the seat, paid at the checkout like any other;
// the same link gives the place up instead.

const TOKEN = /[?&]token=([0-9a-f]+)/;

export function WaitingListClaimPage({ page, path }: { page: ClaimData; path: string }) {
  const token = TOKEN.exec(path)?.[1] ?? '';
  const basket = useBasket();
  const navigate = useNavigate();
  const { busy, error, run: send } = useAction();
  const [gaveUp, setGaveUp] = useState(false);
  const { seat } = page;

  if (gaveUp) {
    return (
      <div className="container order-page">
        <h1>You have given up your place</h1>
        <p>Thank you for letting us know: the seat goes to the next person waiting.</p>
      </div>
    );
  }
  if (page.state !== 'open' || !seat) {
    return (
      <div className="container order-page">
        <h1>{page.state === 'claimed' ? 'This seat has been claimed' : 'This offer has closed'}</h1>
        <p>
          {page.state === 'claimed'
            ? 'The link works once, and it has been used. If you claimed it, finish paying at the checkout.'
            : 'The offer ran out or was given up, so the seat went to the next person waiting.'}{' '}
          <Link to="/training-course-calendar/">See other dates</Link>
        </p>
      </div>
    );
  }

  const claim = () =>
    send(async () => {
      const { orderId } = await postJson<{ orderId: string }>('/api/waiting-list/claim', { token });
      writeText('local', ORDER_ID_KEY, orderId);
      basket.replaceCourses([{
        courseId: seat.courseId, title: seat.title, url: seat.url, image: seat.image, price: seat.price, wasPrice: seat.wasPrice,
        isPackage: seat.isPackage, includeKit: false,
        selectedEvent: { id: seat.sessionId, date: seat.date, type: seat.sessionType, price: seat.price },
      }]);
      navigate('/checkout/');
    });
  const giveUp = () =>
    send(async () => {
      await postJson('/api/waiting-list/leave', { token });
      setGaveUp(true);
    });

  return (
    <div className="container order-page">
      <h1>A seat is free for you</h1>
      <p>
        <strong>{seat.title}</strong>
        {`, ${formatSessionDate(seat.date)} (${sessionTypeLabel(seat.sessionType)}): ${formatMoney(seat.price)}.`}
      </p>
      {page.expiresAt && <p>{`We are keeping it for you until ${formatSessionDate(page.expiresAt)} at ${formatTime(page.expiresAt)}.`}</p>}
      {error && <p role="alert" className="form-error">{error}</p>}
      <div className="button-row">
        <button type="button" className="button" aria-disabled={busy} onClick={() => void claim()}>
          Claim my seat and book
        </button>
        <button type="button" className="button button-secondary" aria-disabled={busy} onClick={() => void giveUp()}>
          Give up my place
        </button>
      </div>
    </div>
  );
}

export function WaitingListConfirmPage({ page, path }: { page: ConfirmData; path: string }) {
  const token = TOKEN.exec(path)?.[1] ?? '';
  const { busy, error, run: send } = useAction();
  const [confirmed, setConfirmed] = useState(page.state === 'confirmed');
  if (confirmed) {
    return (
      <div className="container order-page">
        <h1>You are on the waiting list</h1>
        <p>
          {page.waitingFor ? `You are waiting for a seat on ${page.waitingFor}. ` : ''}
          If a seat frees, we email you and keep it for you for 48 hours, if you open our email within a day. We have emailed you a
          link to leave the list, should you change your mind.
        </p>
      </div>
    );
  }
  if (page.state !== 'open') {
    return (
      <div className="container order-page">
        <h1>This link has run out</h1>
        <p>
          A link to confirm a place works for 24 hours. To wait for a seat, join the waiting list again from the course’s page.{' '}
          <Link to="/training-course-calendar/">See the training course calendar</Link>
        </p>
      </div>
    );
  }
  const confirm = () =>
    send(async () => {
      await postJson('/api/waiting-list/confirm', { token });
      setConfirmed(true);
    });
  return (
    <div className="container order-page">
      <h1>Confirm your place</h1>
      <p>{`You asked to wait for a seat on ${page.waitingFor ?? 'a course'}. Your place in the queue counts from when you confirm.`}</p>
      {error && <p role="alert" className="form-error">{error}</p>}
      <button type="button" className="button" aria-disabled={busy} onClick={() => void confirm()}>
        Confirm my place
      </button>
    </div>
  );
}

export function WaitingListLeavePage({ page, path }: { page: LeaveData; path: string }) {
  const token = TOKEN.exec(path)?.[1] ?? '';
  const { busy, error, run: send } = useAction();
  const [left, setLeft] = useState(false);
  if (left || !page.waitingFor) {
    return (
      <div className="container order-page">
        <h1>You are not on the waiting list</h1>
        <p>{left ? 'You have left the waiting list. Thank you for letting us know.' : 'You have left it already, or the link is not valid.'}</p>
      </div>
    );
  }
  const leave = () =>
    send(async () => {
      await postJson('/api/waiting-list/leave', { token });
      setLeft(true);
    });
  return (
    <div className="container order-page">
      <h1>Leave the waiting list</h1>
      <p>{`You are waiting for a seat on ${page.waitingFor}.`}</p>
      {error && <p role="alert" className="form-error">{error}</p>}
      <button type="button" className="button" aria-disabled={busy} onClick={() => void leave()}>
        Leave the waiting list
      </button>
    </div>
  );
}
