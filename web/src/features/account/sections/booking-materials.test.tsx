import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BookingMaterial } from '../../../generated/BookingMaterial';
import { BookingMaterials } from './booking-materials';

const material = (title: string, change: Partial<BookingMaterial>): BookingMaterial => ({
  id: title, enrollment_id: 'order-1', course_title: 'Chemical Peels Course', title, kind: 'link',
  url: 'https://example.org/', format: null, session_date: null, ...change,
});

describe('BookingMaterials', () => {
  it('lists nothing, not even its heading, when there are no materials', () => {
    const { container } = render(<BookingMaterials materials={[]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('opens a document from the site with a download, and an address in a new tab', () => {
    render(
      <BookingMaterials
        materials={[
          material('Aftercare sheet', { kind: 'document', url: '/course-materials/m1', format: 'PDF', session_date: '2027-03-10' }),
          material('Peel demo', { kind: 'video', url: 'https://vimeo.com/76979871' }),
        ]}
      />,
    );
    const [document, video] = screen.getAllByRole('listitem');
    expect(within(document!).getByRole('link', { name: 'Aftercare sheet' })).toHaveAttribute('href', '/course-materials/m1');
    expect(within(document!).getByRole('link', { name: 'Download Aftercare sheet' })).toHaveAttribute('href', '/course-materials/m1?download');
    expect(document).toHaveTextContent('Document · PDF · for 10 Mar 2027');
    const away = within(video!).getByRole('link', { name: 'Peel demo (opens in a new tab)' });
    expect(away).toHaveAttribute('target', '_blank');
    expect(away).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(video!).queryByRole('link', { name: /^Download/ })).toBeNull();
  });

  it('never links an address that is not https, and shows markup in a title as text', () => {
    render(<BookingMaterials materials={[material('<b>Bold</b>', { url: 'javascript:alert(1)' })]} />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('<b>Bold</b>')).toBeInTheDocument();
  });

  it('names each course when a booking holds several', () => {
    render(<BookingMaterials materials={[material('A', {}), material('B', { course_title: 'Dermaplaning Course' })]} />);
    expect(screen.getAllByRole('listitem')[1]).toHaveTextContent('Link · Dermaplaning Course');
  });
});
