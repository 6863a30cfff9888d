import type { TeamPage as TeamData } from '../../generated/TeamPage';
import { Picture } from '../../components/ui/image';

export function TeamPage({ page }: { page: TeamData }) {
  return (
    <div className="container">
      <h1>{page.heading}</h1>
      <p className="lead">{page.intro}</p>
      <ul className="team-grid">
        {page.members.map((member) => (
          <li key={member.name} className="team-member">
            <Picture image={member.image} sizes="(min-width: 64rem) 240px, 45vw" maxDisplay={320} />
            <h2>{member.name}</h2>
            <p className="team-role">{member.role}</p>
            <p>{member.bio}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
