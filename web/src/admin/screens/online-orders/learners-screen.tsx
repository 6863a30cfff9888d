import { useParams } from 'react-router';
import { OrdersTabs } from '../../components/orders-tabs';
import { PageHeading } from '../../components/page-heading';
import { RequestView, ResultCount } from '../../components/request-view';
import { apiPath } from '../../lib/admin-api';
import type { Learners } from '../../lib/api-types';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';
import { AccessChanges, GrantForm } from './access-forms';
import { RegistrationsTable } from './registrations-table';

// An online course's learners (decision 027): each registration with its
// access, progress, last visit, completion and certificate, newest first,
// also as a spreadsheet; staff with `money` give the course to a student
// and change anyone's access here.

export function LearnersScreen() {
  const { course = '' } = useParams();
  const learners = useAdminData<Learners>(apiPath('courses', course, 'learners'));
  const money = can(useStaff(), 'money');
  return (
    <>
      <PageHeading>{learners.data ? `Learners: ${learners.data.courseTitle}` : 'Learners'}</PageHeading>
      <OrdersTabs current="online" />
      <ResultCount count={learners.data?.learners.length} one="learner" many="learners" />
      <RequestView request={learners} what="the learners" missing="There is no such online course.">
        {({ learners: found, courseTitle }) => (
          <>
            <p>
              <a className="button button-secondary" href={apiPath('courses', course, 'learners.csv')} download>
                Download as CSV
              </a>
            </p>
            <RegistrationsTable caption={`Learners of ${courseTitle}`} registrations={found} empty="Nobody has this course yet." showCourse={false} />
            {money && (
              <>
                <h2>Give or change access</h2>
                <div className="action-grid">
                <section className="action-card" aria-labelledby="grant-title">
                  <h3 id="grant-title">Give the course to a student</h3>
                  <GrantForm courseId={course} onChanged={learners.retry} />
                </section>
                  <AccessChanges registrations={found} onChanged={learners.retry} />
                </div>
              </>
            )}
          </>
        )}
      </RequestView>
    </>
  );
}
