import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/api-stub';
import { CONTENT_LIST } from '../../test/content-fixtures';
import { staffMember } from '../../test/fixtures';
import { address, renderAdmin } from '../../test/render-admin';

function renderList(path = '/content/') {
  return renderAdmin(path, staffMember('editor'), { 'GET /api/admin/content': () => jsonResponse(200, { documents: CONTENT_LIST }) });
}

const rowOf = (table: HTMLElement, title: string) => within(table).getByRole('link', { name: title }).closest('tr')!;

describe('the content list', () => {
  it('lists every document with its kind, live address, draft and last change', async () => {
    renderList();
    const table = await screen.findByRole('table', { name: 'Content' });
    expect(within(table).getAllByRole('row')).toHaveLength(CONTENT_LIST.length + 1);
    const botox = rowOf(table, 'Botox Foundation');
    expect(within(botox).getByRole('link', { name: 'Botox Foundation' })).toHaveAttribute('href', '/admin/content/course/botox/');
    expect(within(botox).getByRole('link', { name: '/courses/botox/' })).toHaveAttribute('href', '/courses/botox/');
    expect(within(botox).getByText('Draft waiting')).toBeInTheDocument();
    expect(within(rowOf(table, 'Chemical Peels')).queryByText('Draft waiting')).not.toBeInTheDocument();
    expect(within(rowOf(table, 'Olivia Brennan')).getByText('None')).toBeInTheDocument();
    expect(within(rowOf(table, 'Aesthetics Bundle')).getByText('Package')).toBeInTheDocument();
    expect(within(botox).queryByText('Package')).not.toBeInTheDocument();
    expect(screen.getByText('8 documents')).toBeInTheDocument();
    // Every kind that can be added, and not the site data.
    expect(screen.getByRole('link', { name: 'New course' })).toHaveAttribute('href', '/admin/content/new/course/');
    expect(screen.getByRole('link', { name: 'New Pathway level' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New site data' })).not.toBeInTheDocument();
  });

  it('shows one kind at a time, kept in the address', async () => {
    renderList();
    const kinds = await screen.findByRole('navigation', { name: 'Kinds of content' });
    await userEvent.click(within(kinds).getByRole('link', { name: 'Sections (2)' }));
    const table = await screen.findByRole('table', { name: 'Content: Sections' });
    expect(address()).toBe('/content/?kind=section');
    expect(within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('link')[0]?.textContent)).toEqual(['Aesthetics Courses', 'Lash Courses']);
    expect(within(kinds).getByRole('link', { name: 'Sections (2)' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'New section' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New course' })).not.toBeInTheDocument();
  });

  it('says which documents are off the site, instead of their address', async () => {
    renderAdmin('/content/', staffMember('editor'), {
      'GET /api/admin/content': () => jsonResponse(200, { documents: [{ ...CONTENT_LIST[0], withdrawn: true }] }),
    });
    const table = await screen.findByRole('table', { name: 'Content' });
    const row = rowOf(table, 'Chemical Peels');
    expect(within(row).getByText('Off the site')).toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: '/courses/chemical-peels/' })).not.toBeInTheDocument();
  });

  it('offers nothing new for the site data', async () => {
    renderList('/content/?kind=site');
    expect(await screen.findByRole('table', { name: 'Content: Site' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^New / })).not.toBeInTheDocument();
  });
});
