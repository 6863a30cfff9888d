use chrono::Utc;
use enrol_db::content::{ContentPack, Loaded};
use enrol_domain::london;
use enrol_domain::staff::Role;
use enrol_server::Command;
use serde_json::json;

use crate::admin::staff_member;
use crate::admin_codes::admin;
use crate::admin_media::{PNG, served, upload};
use crate::both_backends;
use crate::course_files::{MP4, upload_file};
use crate::enrol_checkout::count;
use crate::helpers::{Backend, TestApp, fresh_database, repo_root, test_config};

const TABLES: [&str; 13] = [
    "site",
    "section",
    "course",
    "course_section",
    "event",
    "session",
    "upsell",
    "discount_code",
    "page",
    "team_member",
    "job",
    "blog_post",
    "pathway_level",
];

/// What a document projects to, compared whole after export and load.
const DOCUMENT_TABLES: [&str; 9] =
    ["site", "section", "course", "course_section", "page", "team_member", "job", "blog_post", "pathway_level"];

async fn table_rows(app: &TestApp) -> Vec<i64> {
    let mut counts = Vec::new();
    for table in TABLES {
        counts.push(count(app, &format!("select count(*) from {table}")).await);
    }
    counts
}

/// Every row `sql` reads, as text, for comparing two databases.
async fn rows(app: &TestApp, sql: &str) -> Vec<String> {
    enrol_db::on_pool!(app.db(), pool => {
        use sqlx::{Column as _, Row as _};
        let found = sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).fetch_all(pool).await.unwrap();
        found.iter().map(|row| {
            (0..row.len()).map(|i| {
                let name = row.column(i).name().to_owned();
                let value = row.try_get::<Option<String>, _>(i).map(|v| format!("{v:?}"))
                    .or_else(|_| row.try_get::<Option<i64>, _>(i).map(|v| format!("{v:?}")))
                    .or_else(|_| row.try_get::<Option<bool>, _>(i).map(|v| format!("{v:?}")))
                    .or_else(|_| row.try_get::<Option<chrono::NaiveDate>, _>(i).map(|v| format!("{v:?}")))
                    .unwrap_or_else(|_| "?".to_owned());
                format!("{name}={value}")
            }).collect::<Vec<_>>().join(", ")
        }).collect()
    })
}

pub(crate) fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

both_backends! {
    async fn the_demo_pack_has_what_the_college_sells(app: TestApp) {
        let pack = ContentPack::read(&repo_root().join("content"), london::today(Utc::now()), Vec::new()).unwrap();
        assert!(pack.counts.in_person_courses >= 40, "{:?}", pack.counts);
        assert!(pack.counts.online_courses >= 12, "{:?}", pack.counts);
        assert_eq!(pack.counts.sections, 10);
        assert!(pack.counts.blog_posts >= 8);
        let mut upsells: Vec<i64> = enrol_db::on_pool!(app.db(), pool =>
            sqlx::query_as::<_, (i64,)>("select unit_amount from upsell").fetch_all(pool).await).unwrap()
            .into_iter().map(|(a,)| a).collect();
        upsells.sort_unstable();
        assert_eq!(upsells, [1999, 1999, 2999, 3999, 3999, 6999, 6999, 6999, 7999, 39999]);
        let (full, last_seat): (i64, i64) = enrol_db::on_pool!(app.db(), pool => sqlx::query_as(
            "select sum(case when registrations = seats then 1 else 0 end), \
             sum(case when registrations = seats - 1 then 1 else 0 end) from session"
        ).fetch_one(pool).await).unwrap();
        assert!(full >= 2 && last_seat >= 2, "full {full}, one seat left {last_seat}");
        app.stop().await;
    }

    async fn loading_the_pack_again_changes_nothing_not_even_after_staff_edits(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (_, course) = admin(&staff, &app, "GET", "/content/course/chemical-peels", None).await;
        let mut body = course["published"].clone();
        body["price"] = json!(71_500);
        assert_eq!(admin(&staff, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await.0, 200);
        assert_eq!(admin(&staff, &app, "POST", "/content/course/chemical-peels/publish", None).await.0, 200);
        let (booked_id,): (String,) = enrol_db::on_pool!(app.db(), pool => sqlx::query_as(
            "select min(id) from session where registrations < seats"
        ).fetch_one(pool).await).unwrap();
        enrol_db::on_pool!(app.db(), pool => sqlx::query("update session set registrations = registrations + 1 where id = $1")
            .bind(&booked_id).execute(pool).await.map(drop)).unwrap();

        let before_version = app.db().content_version().await.unwrap();
        let before = table_rows(&app).await;
        let pack = ContentPack::read(&repo_root().join("content"), london::today(Utc::now()), Vec::new()).unwrap();
        assert_eq!(pack.write(app.db()).await.unwrap(), Loaded::default());
        assert_eq!(table_rows(&app).await, before, "a reload changed rows");
        assert_eq!(app.db().content_version().await.unwrap(), before_version, "a reload that wrote nothing moved the version");
        let price: i64 = enrol_db::on_pool!(app.db(), pool =>
            sqlx::query_scalar("select unit_amount from course where id = 'chemical-peels'").fetch_one(pool).await).unwrap();
        assert_eq!(price, 71_500, "a reload must not undo an edit");
        app.stop().await;
    }

    async fn an_export_loaded_into_an_empty_database_gives_the_same_site(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (_, page) = admin(&staff, &app, "GET", "/content/page/about", None).await;
        let mut body = page["published"].clone();
        body["body"] = json!("## Edited\n\nWe moved to a **bigger** building.");
        admin(&staff, &app, "PUT", "/content/page/about/draft", Some(json!({ "body": body }))).await;
        assert_eq!(admin(&staff, &app, "POST", "/content/page/about/publish", None).await.0, 200);
        // An uploaded image on a course, and one in the library on no page yet.
        let (_, used) = upload(&staff, &app, "A peel being applied", PNG).await;
        let (_, spare) = upload(&staff, &app, "A spare photograph", PNG).await;
        let (_, course) = admin(&staff, &app, "GET", "/content/course/chemical-peels", None).await;
        let mut body = course["published"].clone();
        body["image"] = json!({ "file": used["fileName"], "alt": "A peel being applied" });
        admin(&staff, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await;
        assert_eq!(admin(&staff, &app, "POST", "/content/course/chemical-peels/publish", None).await.0, 200);
        // A course file beside the demo's, on no lesson yet.
        let (_, course_file) = upload_file(&staff, &app, "Aftercare talk.mp4", MP4.to_vec()).await;

        // `enrol content export DIR`, as an operator runs it.
        let dir = std::env::temp_dir().join(format!("enrol-export-{}", uuid::Uuid::new_v4().simple()));
        enrol_server::execute(Command::ExportContent(dir.clone()), app.state.config.clone()).await.unwrap();
        assert!(dir.join("media.yaml").exists() && dir.join("images").join(used["fileName"].as_str().unwrap()).exists());
        // A new site on an empty database of the same engine, with its own
        // file store, loading the export.
        let backend = match app.db().backend() {
            enrol_db::Backend::Sqlite => Backend::Sqlite,
            enrol_db::Backend::Postgres => Backend::Postgres,
        };
        let database = fresh_database(backend).await.unwrap();
        let mut config = test_config(database.url.clone());
        config.content_dir = dir.clone();
        let other = TestApp::with_config(config).await;
        for table in DOCUMENT_TABLES {
            let sql = format!("select * from {table} order by 1, 2");
            assert_eq!(rows(&app, &sql).await, rows(&other, &sql).await, "{table} differs after export and load");
        }
        let library = "select key, file_name, content_type, width, height, alt from media order by key";
        assert_eq!(rows(&app, library).await, rows(&other, library).await, "the media library differs after export and load");
        let course_files = "select key, file_name, content_type, bytes, original_name from course_file order by key";
        assert_eq!(rows(&app, course_files).await, rows(&other, course_files).await, "the course files differ after export and load");
        let key = course_file["key"].as_str().unwrap();
        assert_eq!(other.state.files.get(key).await.unwrap().as_deref(), Some(MP4), "the course file's bytes travel with the pack");
        for path in ["/about/", "/courses/aesthetics/chemical-peels/", "/blog/", "/team/"] {
            let one: serde_json::Value = app.get(&format!("/api/page-data?path={path}")).await.json().await.unwrap();
            let two: serde_json::Value = other.get(&format!("/api/page-data?path={path}")).await.json().await.unwrap();
            assert_eq!(one["page"], two["page"], "{path}");
        }
        for file in [&used["fileName"], &spare["fileName"]] {
            let response = served(&other, file.as_str().unwrap()).await;
            assert_eq!((response.status().as_u16(), response.headers()["content-type"].to_str().unwrap()), (200, "image/png"), "{file}");
        }
        // Loading the export again changes nothing.
        let again = enrol_server::execute(Command::LoadContent, other.state.config.clone()).await;
        assert!(again.is_ok(), "{again:?}");
        assert_eq!(rows(&other, library).await.len(), 2);
        assert_eq!(rows(&other, course_files).await.len(), 3);
        let _ = std::fs::remove_dir_all(dir);
        other.stop().await;
        database.drop_now().await;
        app.stop().await;
    }

    async fn a_pack_whose_uploaded_image_is_not_what_its_name_says_does_not_load(app: TestApp) {
        let dir = std::env::temp_dir().join(format!("enrol-pack-{}", uuid::Uuid::new_v4().simple()));
        copy_dir(&repo_root().join("content"), &dir);
        std::fs::create_dir_all(dir.join("images/uploads")).unwrap();
        std::fs::write(dir.join("images/uploads/abcdef.jpg"), PNG).unwrap();
        std::fs::write(dir.join("media.yaml"), "- file: uploads/abcdef.jpg\n  alt: A photograph\n").unwrap();
        let mut config = app.state.config.clone();
        config.content_dir = dir.clone();
        let refused = enrol_server::execute(Command::LoadContent, config.clone()).await.unwrap_err();
        assert!(format!("{refused:#}").contains("not .jpg"), "{refused:#}");
        std::fs::write(dir.join("media.yaml"), "- file: ../../etc/passwd\n  alt: A photograph\n").unwrap();
        let refused = enrol_server::execute(Command::LoadContent, config).await.unwrap_err();
        assert!(format!("{refused:#}").contains("is not an uploaded image's name"), "{refused:#}");
        assert_eq!(crate::enrol_checkout::count(&app, "select count(*) from media").await, 0);
        let _ = std::fs::remove_dir_all(dir);
        app.stop().await;
    }
}
