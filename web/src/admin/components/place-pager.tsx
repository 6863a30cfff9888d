import { Link } from 'react-router';

/**
 * A list read a page at a time after a place (decision 039): a link back to
 * its first page once past it, and one to the page after this one when the
 * answer names where it starts (`next`). The place is the address's
 * parameter `param`; the other filters stay.
 */
export function PlacePager({
  label,
  filters,
  param,
  next,
  first,
  later,
}: {
  label: string;
  filters: { params: URLSearchParams; searchWith: (next: Record<string, string | null>) => string };
  param: string;
  next: string | number | null;
  first: string;
  later: string;
}) {
  return (
    <nav aria-label={label} className="pager">
      {filters.params.get(param) && <Link to={{ search: filters.searchWith({ [param]: null }) }}>{first}</Link>}
      {next !== null && <Link to={{ search: filters.searchWith({ [param]: String(next) }) }}>{later}</Link>}
    </nav>
  );
}
