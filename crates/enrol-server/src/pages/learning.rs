//! The course player's pages (decision 025): shown only to a signed-in
//! student with a registration for the course; anyone else gets the same
//! "not found" as for a course that does not exist. A student whose access
//! ended sees a page that says so. A course taught by a SCORM package
//! (decision 026) has one page, the package's frame; it wins over lessons.
//! A registration sold with a hosted LMS's course (decision 029) opens
//! `provider_course`'s page instead, and none of these. Staff preview a
//! draft's lessons and quizzes through the same pages (decision 018), as a
//! student who has just started, recording nothing.

use enrol_db::content::projection::course_url;
use enrol_db::{CourseRegistration, PackageRecord, QuizAttempts};
use enrol_domain::content::CourseBody;
use enrol_domain::learning::access::{Access, access_ends};
use enrol_domain::learning::course_file::{CourseFileKind, FILES, is_course_file, parse_file_name};
use enrol_domain::learning::curriculum::{Curriculum, Download, Lesson, Quiz, Step, Video};
use enrol_domain::learning::progress::{Progress, StudyRecord, package_percent};
use enrol_domain::learning::quiz::{QuizView, attempts_left};
use enrol_domain::page::{
    CourseClosedPage, LearnCourse, LearnModule, LearnPage, LessonDownload, LessonPage, LessonVideo, QuizPage, ScormCoursePage, StepEntry,
    StepKind,
};

use super::*;

/// A course as the player opens it for one student.
struct Opened {
    course: LearnCourse,
    body: CourseBody,
    record: StudyRecord,
    access: Access,
    package: Option<PackageRecord>,
}

/// The course a player page belongs to, as published as `body`.
pub(super) fn learn_course(course_id: &str, body: &CourseBody) -> LearnCourse {
    LearnCourse {
        id: course_id.to_owned(),
        title: body.title.clone(),
        player_url: format!("/learn/{course_id}/"),
        catalogue_url: course_url(course_id, body),
        preview: false,
    }
}

/// Where a course file (`files/<key>.<ext>`) is read: at the course's
/// address by its students; in staff's preview, at the back office's own.
fn course_file_url(course: &LearnCourse, file: &str) -> String {
    if course.preview {
        format!("/api/admin/course-files/{}", file.strip_prefix(FILES).unwrap_or(file))
    } else {
        format!("/learn/{}/{file}", course.id)
    }
}

/// `/learn/{course}/{step}/`: a lesson's or a quiz's address, below the
/// course's contents (a preview's own, in a preview).
fn step_url(course: &LearnCourse, slug: &str) -> String {
    format!("{}{slug}/", course.player_url)
}

fn entry(course: &LearnCourse, step: Step<'_>, record: &StudyRecord) -> StepEntry {
    match step {
        Step::Lesson(lesson) => StepEntry {
            slug: lesson.slug.clone(),
            title: lesson.title.clone(),
            kind: StepKind::Lesson,
            url: step_url(course, &lesson.slug),
            minutes: Some(lesson.minutes),
            done: record.lessons_completed.contains(&lesson.slug),
        },
        Step::Quiz(quiz) => StepEntry {
            slug: quiz.slug.clone(),
            title: quiz.title.clone(),
            kind: StepKind::Quiz,
            url: step_url(course, &quiz.slug),
            minutes: None,
            done: record.quizzes_passed.contains(&quiz.slug),
        },
    }
}

/// The steps either side of `slug`, in course order.
fn neighbours(course: &LearnCourse, curriculum: &Curriculum, slug: &str, record: &StudyRecord) -> (Option<StepEntry>, Option<StepEntry>) {
    let steps: Vec<Step<'_>> = curriculum.steps().collect();
    let at = steps.iter().position(|step| step.slug() == slug);
    let before = at.and_then(|i| i.checked_sub(1)).and_then(|i| steps.get(i));
    let after = at.and_then(|i| steps.get(i + 1));
    (before.map(|s| entry(course, *s, record)), after.map(|s| entry(course, *s, record)))
}

impl Request<'_> {
    /// The signed-in student's registration for `course_id` giving the
    /// most access, if they have one.
    async fn registration(&self, course_id: &str) -> anyhow::Result<Option<CourseRegistration>> {
        let Some(user_id) = self.viewer.user_id.as_deref() else { return Ok(None) };
        self.db.course_registration(user_id, course_id).await
    }

    /// The course `course_id` as the signed-in student may open it in
    /// Enrol's own player with `registration`, or `None` (not found) when
    /// it has neither lessons nor a package.
    async fn open_course(&self, course_id: &str, registration: CourseRegistration) -> anyhow::Result<Option<Opened>> {
        let user_id = self.viewer.user_id.as_deref().unwrap_or_default();
        let Some(body) = self.db.published_course(course_id).await? else { return Ok(None) };
        let package = self.db.course_package(course_id).await?;
        if body.learning.is_none() && package.is_none() {
            return Ok(None);
        }
        let course = learn_course(course_id, &body);
        let access = Access::of(registration.starts_at, registration.ends_at, registration.revoked_at, self.now);
        let record = self.db.study_record(user_id, course_id).await?;
        Ok(Some(Opened { course, body, record, access, package }))
    }

    /// The player's page for a student whose `access` to `course` ended.
    pub(super) fn closed(&self, course: LearnCourse, access: Access) -> anyhow::Result<Found> {
        let on_sale = self.catalogue.course_by_id(&course.id)?.is_some();
        let title = course.title.clone();
        Ok(self.found(
            &title,
            "Your access to this online course.",
            Page::CourseClosed(CourseClosedPage { message: access.message(), access, on_sale, course }),
        ))
    }

    /// `/learn/{course}/`: the contents, progress and where to continue;
    /// for a registration sold with a hosted LMS's course, the way there.
    pub(super) async fn learn(&self, course_id: &str) -> Loaded {
        let Some(registration) = self.registration(course_id).await? else { return Ok(None) };
        if let Some(provider) = registration.provider() {
            return self.provider_course(course_id, &registration, &provider).await;
        }
        let Some(opened) = self.open_course(course_id, registration).await? else { return Ok(None) };
        if !opened.access.may_study() {
            return self.closed(opened.course, opened.access).map(Some);
        }
        if let Some(package) = &opened.package {
            return self.scorm_course(&opened, package).await.map(Some);
        }
        self.contents(opened).await
    }

    /// The contents of `opened`'s lessons and quizzes, with the student's progress.
    async fn contents(&self, opened: Opened) -> Loaded {
        let Opened { course, body, record, access, .. } = opened;
        let Some(curriculum) = body.learning.as_ref() else { return Ok(None) };
        let modules = curriculum
            .modules
            .iter()
            .map(|module| LearnModule {
                title: module.title.clone(),
                steps: module
                    .lessons
                    .iter()
                    .map(Step::Lesson)
                    .chain(module.quiz.iter().map(Step::Quiz))
                    .map(|step| entry(&course, step, &record))
                    .collect(),
            })
            .collect();
        let progress = Progress::of(curriculum, &record);
        let user_id = self.viewer.user_id.as_deref().unwrap_or_default();
        let certificate = if progress.complete && !course.preview { self.db.course_certificate(user_id, &course.id).await? } else { None };
        let resume = progress.resume.as_deref().and_then(|slug| curriculum.steps().find(|step| step.slug() == slug));
        let page = LearnPage {
            assessment: curriculum.assessment.as_ref().map(|quiz| entry(&course, Step::Quiz(quiz), &record)),
            resume: resume.map(|step| entry(&course, step, &record)),
            modules,
            progress,
            access,
            course,
            certificate,
        };
        let title = page.course.title.clone();
        Ok(Some(self.found(&title, "Your online course: its lessons, quizzes and your progress.", Page::Learn(page))))
    }

    /// `/learn/{course}/{step}/`: a lesson or a quiz of the course.
    pub(super) async fn learn_step(&self, course_id: &str, slug: &str) -> Loaded {
        let Some(registration) = self.registration(course_id).await?.filter(|r| r.provider().is_none()) else { return Ok(None) };
        let Some(opened) = self.open_course(course_id, registration).await? else { return Ok(None) };
        let Some(curriculum) = opened.body.learning.as_ref().filter(|_| opened.package.is_none()) else { return Ok(None) };
        if curriculum.lesson(slug).is_none() && curriculum.quiz(slug).is_none() {
            return Ok(None);
        }
        if !opened.access.may_study() {
            return self.closed(opened.course, opened.access).map(Some);
        }
        self.step(&opened, slug).await
    }

    /// The lesson or quiz `slug` of `opened`.
    async fn step(&self, opened: &Opened, slug: &str) -> Loaded {
        let Some(curriculum) = opened.body.learning.as_ref() else { return Ok(None) };
        if let Some(lesson) = curriculum.lesson(slug) {
            return self.lesson(opened, curriculum, lesson).await.map(Some);
        }
        match curriculum.quiz(slug) {
            Some(quiz) => self.quiz(opened, curriculum, quiz).await.map(Some),
            None => Ok(None),
        }
    }

    /// Staff's preview of course `course_id` as `body` (a draft) teaches
    /// it: its contents, or its step `step`, as a student who has just
    /// started sees them, with every link to the preview's own pages below
    /// `player_url`. Nothing of it reads or writes a student's study.
    pub(super) async fn learn_preview(&self, course_id: &str, body: CourseBody, player_url: String, step: Option<&str>) -> Loaded {
        let Some(months) = body.learning.as_ref().map(|curriculum| curriculum.access_months) else { return Ok(None) };
        let course = LearnCourse {
            id: course_id.to_owned(),
            title: body.title.clone(),
            player_url,
            catalogue_url: course_url(course_id, &body),
            preview: true,
        };
        let access = Access::of(self.now, access_ends(self.now, months), None, self.now);
        let opened = Opened { course, body, record: StudyRecord::default(), access, package: None };
        match step {
            Some(slug) => self.step(&opened, slug).await,
            None => self.contents(opened).await,
        }
    }

    /// `/learn/{course}/` of a course taught by `package`: where the
    /// student is, from what its runtime last committed.
    async fn scorm_course(&self, opened: &Opened, package: &PackageRecord) -> anyhow::Result<Found> {
        let user_id = self.viewer.user_id.as_deref().unwrap_or_default();
        let kept = self.db.course_cmi(user_id, &opened.course.id).await?;
        let complete = kept.as_ref().is_some_and(|kept| kept.completed_at.is_some());
        let certificate = if complete { self.db.course_certificate(user_id, &opened.course.id).await? } else { None };
        let page = ScormCoursePage {
            certificate,
            course: opened.course.clone(),
            access: opened.access,
            package_title: package.title.clone(),
            percent: package_percent(kept.as_ref().map(|kept| &kept.cmi), complete),
            complete,
            started: kept.is_some_and(|kept| kept.cmi.started()),
        };
        let title = opened.course.title.clone();
        Ok(self.found(&title, "Your online course.", Page::ScormCourse(page)))
    }

    /// A download as the lesson lists it: a course file at the course's
    /// address, with its format and size; else an image of the media
    /// library or the pack, public below `/media/`.
    async fn download(&self, course: &LearnCourse, download: &Download) -> anyhow::Result<LessonDownload> {
        let title = download.title.clone();
        let kept = match parse_file_name(&download.file).filter(|_| is_course_file(&download.file)) {
            Some((key, _)) => self.db.course_file(key).await?,
            None => None,
        };
        Ok(match kept {
            Some(file) => LessonDownload {
                title,
                url: format!("{}?download", course_file_url(course, &file.file_name)),
                format: CourseFileKind::of_content_type(&file.content_type).map(|kind| kind.format().to_owned()),
                bytes: u64::try_from(file.bytes).ok(),
            },
            None => LessonDownload { title, url: format!("/media/{}", download.file), format: None, bytes: None },
        })
    }

    async fn lesson(&self, opened: &Opened, curriculum: &Curriculum, lesson: &Lesson) -> anyhow::Result<Found> {
        let (previous, next) = neighbours(&opened.course, curriculum, &lesson.slug, &opened.record);
        let module = curriculum.module_of(&lesson.slug).and_then(|i| curriculum.modules.get(i)).map(|m| m.title.clone());
        let mut downloads = Vec::with_capacity(lesson.downloads.len());
        for download in &lesson.downloads {
            downloads.push(self.download(&opened.course, download).await?);
        }
        let page = LessonPage {
            course: opened.course.clone(),
            module: module.unwrap_or_default(),
            slug: lesson.slug.clone(),
            title: lesson.title.clone(),
            minutes: lesson.minutes,
            html: enrol_db::markdown_to_html(&lesson.body),
            video: lesson.video.as_ref().map(|video| match video {
                Video::Upload { file } => LessonVideo::File { url: course_file_url(&opened.course, file) },
                Video::YouTube { .. } | Video::Vimeo { .. } => LessonVideo::Embed { url: video.embed_url().unwrap_or_default() },
            }),
            downloads,
            done: opened.record.lessons_completed.contains(&lesson.slug),
            previous,
            next,
            percent: Progress::of(curriculum, &opened.record).percent,
        };
        let title = format!("{}: {}", lesson.title, opened.course.title);
        Ok(self.found(&title, "A lesson of your online course.", Page::Lesson(page)))
    }

    async fn quiz(&self, opened: &Opened, curriculum: &Curriculum, quiz: &Quiz) -> anyhow::Result<Found> {
        let course = &opened.course;
        let (attempts, attempts_url) = if course.preview {
            (QuizAttempts::default(), format!("{}attempts", step_url(course, &quiz.slug)))
        } else {
            let user_id = self.viewer.user_id.as_deref().unwrap_or_default();
            (
                self.db.quiz_attempts(user_id, &course.id, &quiz.slug).await?,
                format!("/api/learn/{}/quizzes/{}/attempts", course.id, quiz.slug),
            )
        };
        let (_, next) = neighbours(course, curriculum, &quiz.slug, &opened.record);
        let page = QuizPage {
            course: opened.course.clone(),
            module: curriculum.module_of(&quiz.slug).and_then(|i| curriculum.modules.get(i)).map(|m| m.title.clone()),
            quiz: QuizView::of(quiz),
            attempts_used: attempts.used,
            attempts_left: attempts_left(quiz.max_attempts, attempts.used),
            best_score: attempts.best_score,
            passed: attempts.passed,
            next,
            attempts_url,
        };
        let title = format!("{}: {}", quiz.title, opened.course.title);
        Ok(self.found(&title, "A quiz of your online course.", Page::Quiz(page)))
    }
}
