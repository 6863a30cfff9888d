/**
 * The words a student reads once their study completes the course: well
 * done, and the certificate it earned, to keep as a PDF and to show
 * anyone at its public page.
 */
export function CourseCompleted({ certificate }: { certificate: string | null }) {
  return (
    <div className="form-success course-completed">
      <p>You have completed this course. Well done!</p>
      {certificate && (
        <p>
          {`Your certificate number is ${certificate}. `}
          <a href={`/api/account/certificates/${encodeURIComponent(certificate)}`} download>Download your certificate (PDF)</a>
          {' or '}
          <a href={`/certificates/${encodeURIComponent(certificate)}`}>see its public page</a>
          {', where employers and insurers check it.'}
        </p>
      )}
    </div>
  );
}
