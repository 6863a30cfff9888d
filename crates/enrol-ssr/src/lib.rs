//! Server-side rendering of the React pages in QuickJS.
//!
//! A QuickJS runtime is not `Send`, so each engine lives on its own OS thread
//! and takes render jobs from a shared queue; async callers wait on a oneshot.
//! The page bundle is compiled to bytecode once and loaded by every engine.
//! Each render runs under a memory limit and an interrupt deadline.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use rquickjs::module::WriteOptions;
use rquickjs::{CatchResultExt, Context, Function, Module, Object, Runtime};
use tokio::sync::oneshot;

const PRELUDE: &str = include_str!("prelude.js");

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Heap limit of each engine.
    pub memory_bytes: usize,
    /// The longest one render may run.
    pub deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { memory_bytes: 96 * 1024 * 1024, deadline: Duration::from_secs(2) }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the page script failed: {0}")]
    Script(String),
    #[error("the render engines have stopped")]
    Stopped,
}

struct Job {
    url: String,
    data_json: String,
    reply: oneshot::Sender<Result<String, RenderError>>,
}

/// A pool of QuickJS engines rendering `globalThis.EnrolSSR.render(url, json)`.
#[derive(Clone)]
pub struct SsrPool {
    jobs: mpsc::Sender<Job>,
}

impl SsrPool {
    /// Compiles `bundle` and starts `engines` threads; fails if the bundle
    /// does not load or does not define `EnrolSSR.render`.
    pub fn start(bundle: &str, engines: usize, limits: Limits) -> anyhow::Result<Self> {
        let bytecode = Arc::new(compile(bundle)?);
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..engines.max(1) {
            let (ready_tx, ready_rx) = mpsc::channel();
            let bytecode = Arc::clone(&bytecode);
            let queue = Arc::clone(&queue);
            std::thread::Builder::new()
                .name(format!("ssr-{n}"))
                .spawn(move || run_engine(&bytecode, limits, &queue, &ready_tx))
                .context("Failed to start a render thread")?;
            ready_rx.recv().context("A render engine stopped while starting")??;
        }
        Ok(SsrPool { jobs })
    }

    /// Renders the app root for `url` from the page data.
    pub async fn render(&self, url: String, data_json: String) -> Result<String, RenderError> {
        let (reply, answer) = oneshot::channel();
        self.jobs.send(Job { url, data_json, reply }).map_err(|_| RenderError::Stopped)?;
        answer.await.map_err(|_| RenderError::Stopped)?
    }
}

fn compile(bundle: &str) -> anyhow::Result<Vec<u8>> {
    let runtime = Runtime::new().context("Failed to create a QuickJS runtime")?;
    let context = Context::full(&runtime).context("Failed to create a QuickJS context")?;
    context.with(|ctx| {
        let module = Module::declare(ctx.clone(), "entry-server", bundle)
            .catch(&ctx)
            .map_err(|e| anyhow::anyhow!("The page bundle does not compile: {e}"))?;
        module.write(WriteOptions::default()).context("Failed to write the page bundle's bytecode")
    })
}

struct Engine {
    // Field order matters: the context must drop before its runtime.
    context: Context,
    _runtime: Runtime,
    deadline: Rc<Cell<Option<Instant>>>,
    limit: Duration,
}

impl Engine {
    fn new(bytecode: &[u8], limits: Limits) -> anyhow::Result<Self> {
        let runtime = Runtime::new().context("Failed to create a QuickJS runtime")?;
        runtime.set_memory_limit(limits.memory_bytes);
        runtime.set_max_stack_size(1024 * 1024);
        let deadline: Rc<Cell<Option<Instant>>> = Rc::new(Cell::new(None));
        let watch = Rc::clone(&deadline);
        runtime.set_interrupt_handler(Some(Box::new(move || watch.get().is_some_and(|d| Instant::now() > d))));
        let context = Context::full(&runtime).context("Failed to create a QuickJS context")?;
        context.with(|ctx| -> anyhow::Result<()> {
            let log = Function::new(ctx.clone(), |level: i32, message: String| match level {
                0 => tracing::debug!(target: "ssr", "{message}"),
                1 => tracing::info!(target: "ssr", "{message}"),
                2 => tracing::warn!(target: "ssr", "{message}"),
                _ => tracing::error!(target: "ssr", "{message}"),
            })?;
            ctx.globals().set("__enrolLog", log)?;
            ctx.eval::<(), _>(PRELUDE).catch(&ctx).map_err(|e| anyhow::anyhow!("The SSR prelude failed: {e}"))?;
            // SAFETY: the bytes were written by `Module::write` of this same
            // QuickJS build, in this process, from the bundle we were given.
            #[allow(unsafe_code)]
            let module = unsafe { Module::load(ctx.clone(), bytecode) }.context("Failed to load the page bytecode")?;
            let (_, done) = module.eval().catch(&ctx).map_err(|e| anyhow::anyhow!("The page bundle failed to run: {e}"))?;
            done.finish::<()>().catch(&ctx).map_err(|e| anyhow::anyhow!("The page bundle failed to run: {e}"))?;
            let ssr: Object = ctx.globals().get("EnrolSSR").context("The page bundle does not define EnrolSSR")?;
            let _: Function = ssr.get("render").context("EnrolSSR has no render function")?;
            Ok(())
        })?;
        Ok(Engine { context, _runtime: runtime, deadline, limit: limits.deadline })
    }

    fn render(&self, url: &str, data_json: &str) -> Result<String, RenderError> {
        self.deadline.set(Some(Instant::now() + self.limit));
        let html = self.context.with(|ctx| {
            let result = (|| {
                let ssr: Object = ctx.globals().get("EnrolSSR")?;
                let render: Function = ssr.get("render")?;
                render.call::<_, String>((url, data_json))
            })();
            result.catch(&ctx).map_err(|e| RenderError::Script(e.to_string()))
        });
        self.deadline.set(None);
        html
    }
}

fn run_engine(bytecode: &[u8], limits: Limits, queue: &Mutex<mpsc::Receiver<Job>>, ready: &mpsc::Sender<anyhow::Result<()>>) {
    let mut engine = match Engine::new(bytecode, limits) {
        Ok(engine) => {
            let _ = ready.send(Ok(()));
            engine
        }
        Err(error) => {
            let _ = ready.send(Err(error));
            return;
        }
    };
    loop {
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        let result = engine.render(&job.url, &job.data_json);
        if let Err(error) = &result {
            tracing::error!(url = %job.url, %error, "Server render failed; starting a fresh engine");
            // A render cut off by the deadline or the heap limit can leave the
            // engine in any state: replace it.
            match Engine::new(bytecode, limits) {
                Ok(fresh) => engine = fresh,
                Err(error) => {
                    tracing::error!(%error, "Failed to restart a render engine");
                    let _ = job.reply.send(result);
                    return;
                }
            }
        }
        let _ = job.reply.send(result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUNDLE: &str = r#"
        globalThis.EnrolSSR = {
            render(url, json) {
                const data = JSON.parse(json);
                if (data.loop) { for (;;) {} }
                if (data.fail) { throw new Error('no page for ' + url); }
                const u = new URL(url, 'http://localhost');
                console.log('rendering', u.pathname);
                return '<h1>' + data.title + '</h1><p>' + u.pathname + '|' + u.search + '</p>';
            }
        };
    "#;

    fn pool() -> SsrPool {
        SsrPool::start(BUNDLE, 2, Limits { memory_bytes: 32 * 1024 * 1024, deadline: Duration::from_millis(200) }).unwrap()
    }

    #[tokio::test]
    async fn renders_with_the_page_data() {
        let html = pool().render("/courses/?sort=price".into(), r#"{"title":"Courses"}"#.into()).await.unwrap();
        assert_eq!(html, "<h1>Courses</h1><p>/courses/|?sort=price</p>");
    }

    #[tokio::test]
    async fn a_throwing_page_is_an_error_and_the_engine_recovers() {
        let pool = pool();
        let error = pool.render("/x".into(), r#"{"fail":true}"#.into()).await.unwrap_err();
        assert!(error.to_string().contains("no page for /x"), "{error}");
        assert!(pool.render("/y".into(), r#"{"title":"Y"}"#.into()).await.is_ok());
    }

    #[tokio::test]
    async fn an_endless_render_is_stopped_by_the_deadline() {
        let pool = pool();
        let started = Instant::now();
        assert!(matches!(pool.render("/".into(), r#"{"loop":true}"#.into()).await, Err(RenderError::Script(_))));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(pool.render("/".into(), r#"{"title":"after"}"#.into()).await.is_ok());
    }

    #[test]
    fn a_bundle_without_render_is_refused_at_start() {
        let error = SsrPool::start("globalThis.x = 1;", 1, Limits::default()).err().unwrap();
        assert!(error.to_string().contains("EnrolSSR"), "{error}");
        assert!(SsrPool::start("this is not javascript", 1, Limits::default()).is_err());
    }
}
