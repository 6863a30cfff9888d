use chrono::Utc;
use enrol_db::content::ContentPack;
use enrol_domain::london;

use crate::both_backends;
use crate::enrol_checkout::count;
use crate::helpers::repo_root;

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

both_backends! {
    async fn the_demo_pack_has_what_the_college_sells(app: TestApp) {
        let pack = ContentPack::read(&repo_root().join("content"), london::today(Utc::now())).unwrap();
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

    async fn reloading_the_content_is_idempotent_and_keeps_bookings(app: TestApp) {
        let before_version = app.db().content_version().await.unwrap();
        let mut before = Vec::new();
        for table in TABLES {
            before.push(count(&app, &format!("select count(*) from {table}")).await);
        }
        let (booked_id,): (String,) = enrol_db::on_pool!(app.db(), pool => sqlx::query_as(
            "select min(id) from session where registrations < seats"
        ).fetch_one(pool).await).unwrap();
        enrol_db::on_pool!(app.db(), pool => sqlx::query("update session set registrations = registrations + 1 where id = $1")
            .bind(&booked_id).execute(pool).await.map(drop)).unwrap();
        let (booked,): (i64,) = enrol_db::on_pool!(app.db(), pool =>
            sqlx::query_as("select registrations from session where id = $1").bind(&booked_id).fetch_one(pool).await).unwrap();

        let pack = ContentPack::read(&repo_root().join("content"), london::today(Utc::now())).unwrap();
        pack.write(app.db()).await.unwrap();
        pack.write(app.db()).await.unwrap();

        let mut after = Vec::new();
        for table in TABLES {
            after.push(count(&app, &format!("select count(*) from {table}")).await);
        }
        assert_eq!(before, after, "row counts per table changed on reload");
        assert_eq!(app.db().content_version().await.unwrap(), before_version + 2);
        let (still,): (i64,) = enrol_db::on_pool!(app.db(), pool =>
            sqlx::query_as("select registrations from session where id = $1").bind(&booked_id).fetch_one(pool).await).unwrap();
        assert_eq!(still, booked, "a reload must not undo bookings");
        app.stop().await;
    }
}
