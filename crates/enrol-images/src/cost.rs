//! What drawing an SVG would ask of resvg, counted on usvg's tree before a
//! pixel is drawn, so that a small file cannot hold a core for minutes: a
//! few hundred bytes can ask for a filter region 25 times the image, an
//! `feMorphology` that visits (2r + 1)² pixels for each one, or an
//! `feTurbulence` of a million octaves.
//!
//! The work is counted in pixel visits at the size being drawn: each shape
//! its area, each layer (a group with opacity, a clip, a mask or a filter)
//! its area, and each filter step its region times what it does per pixel.
//! A drawing over [`MAX_DRAWING_WORK`] is refused, at upload for the
//! largest width the site asks for, and before every resize.

use resvg::tiny_skia::{NonZeroRect, Rect, Transform};
use resvg::usvg::filter::{Filter, Kind};
use resvg::usvg::{Group, Node};

use crate::RenderError;

/// The most work one drawing may ask for, in pixel visits (each about two
/// nanoseconds of one core here): about two seconds, enough for a drop
/// shadow over a whole 3840 × 3840 image.
pub(crate) const MAX_DRAWING_WORK: u64 = 1_000_000_000;
/// The most steps one filter may have; each keeps an image the size of its
/// region until the filter is done, and finds its input by a search.
pub(crate) const MAX_FILTER_PRIMITIVES: usize = 32;
/// The widest blur drawn, in output pixels: far beyond it resvg's box sizes
/// overflow, and long before it the picture is one flat colour.
const MAX_BLUR_PIXELS: f32 = 100_000.0;
/// Visits per pixel of a layer or a filter step: its image is made, its
/// colours converted and laid down.
const LAYER_WORK: u64 = 5;
/// Visits per pixel, beyond [`LAYER_WORK`], of the filter steps that do a
/// fixed amount of work for each (as measured): a blur is five box passes
/// each way, lighting reads nine neighbours, an octave of turbulence makes
/// noise for four channels.
const BLUR_WORK: u64 = 40;
const LIGHTING_WORK: u64 = 20;
const OCTAVE_WORK: u64 = 20;

/// Refuses a drawing of `root` with `transform` onto a canvas `width` by
/// `height` pixels that would take more than [`MAX_DRAWING_WORK`].
pub(crate) fn check(root: &Group, transform: Transform, width: u32, height: u32) -> Result<(), RenderError> {
    let mut tally = Tally { work: 0, transform, canvas: (u64::from(width), u64::from(height)) };
    tally.group(root)
}

struct Tally {
    work: u64,
    transform: Transform,
    canvas: (u64, u64),
}

impl Tally {
    fn add(&mut self, work: u64) -> Result<(), RenderError> {
        self.work = self.work.saturating_add(work);
        if self.work > MAX_DRAWING_WORK { Err(RenderError::TooCostly) } else { Ok(()) }
    }

    /// Every node of `group` and of what it refers to (clip paths, masks,
    /// patterns, filter images, text drawn as paths), as often as resvg
    /// draws them.
    fn group(&mut self, group: &Group) -> Result<(), RenderError> {
        if group.should_isolate() {
            let (width, height) = self.layer(group.abs_layer_bounding_box(), self.transform);
            self.add(width * height * LAYER_WORK)?;
        }
        for filter in group.filters() {
            self.filter(group, filter)?;
        }
        for node in group.children() {
            match node {
                Node::Group(child) => self.group(child)?,
                Node::Path(path) => self.add(self.drawn(path.abs_stroke_bounding_box()))?,
                Node::Image(image) => self.add(self.drawn(image.abs_bounding_box()))?,
                // Drawn as the paths it was shaped into, a subroot.
                Node::Text(_) => {}
            }
            let mut counted = Ok(());
            node.subroots(|root| {
                if counted.is_ok() {
                    counted = self.group(root);
                }
            });
            counted?;
        }
        Ok(())
    }

    fn filter(&mut self, group: &Group, filter: &Filter) -> Result<(), RenderError> {
        if filter.primitives().len() > MAX_FILTER_PRIMITIVES {
            return Err(RenderError::TooCostly);
        }
        // The steps' lengths are scaled as resvg scales them: by the
        // group's transform on the canvas.
        let transform = group.abs_transform().post_concat(self.transform);
        let (scale_x, scale_y) = transform.get_scale();
        let (width, height) = self.layer(filter.rect(), transform);
        let area = width * height;
        for primitive in filter.primitives() {
            let work = match primitive.kind() {
                Kind::Morphology(fe) => {
                    // resvg visits every pixel within the radius, which it
                    // keeps inside the region.
                    let reach = |radius: f32, scale: f32, side: u64| 2 * (radius * scale).round().clamp(0.0, side as f32) as u64 + 1;
                    reach(fe.radius_x().get(), scale_x, width) * reach(fe.radius_y().get(), scale_y, height)
                }
                Kind::GaussianBlur(fe) => blur(fe.std_dev_x().get() * scale_x, fe.std_dev_y().get() * scale_y)?,
                Kind::DropShadow(fe) => blur(fe.std_dev_x().get() * scale_x, fe.std_dev_y().get() * scale_y)?,
                Kind::ConvolveMatrix(fe) => u64::from(fe.matrix().columns()) * u64::from(fe.matrix().rows()),
                Kind::Turbulence(fe) => OCTAVE_WORK.saturating_mul(u64::from(fe.num_octaves())),
                Kind::DiffuseLighting(_) | Kind::SpecularLighting(_) => LIGHTING_WORK,
                _ => 0,
            };
            self.add(area.saturating_mul(LAYER_WORK.saturating_add(work)))?;
        }
        Ok(())
    }

    /// The pixels a shape at `rect` (canvas units) covers on the canvas.
    fn drawn(&self, rect: Rect) -> u64 {
        let (width, height) = self.canvas;
        rect.transform(self.transform).map_or(0, |r| {
            let side = |length: f32, most: u64| (length.ceil().max(0.0) as u64).min(most);
            side(r.width(), width) * side(r.height(), height)
        })
    }

    /// Width and height in pixels of a layer over `rect` placed by
    /// `transform`: resvg keeps a layer within five times the canvas each way.
    fn layer(&self, rect: NonZeroRect, transform: Transform) -> (u64, u64) {
        let (width, height) = self.canvas;
        rect.transform(transform).map_or((0, 0), |r| {
            let side = |length: f32, most: u64| (length.ceil().max(1.0) as u64).min(5 * most);
            (side(r.width(), width), side(r.height(), height))
        })
    }
}

/// Visits per pixel of a blur `x` by `y` output pixels wide.
fn blur(x: f32, y: f32) -> Result<u64, RenderError> {
    if !(x.is_finite() && y.is_finite()) || x.max(y) > MAX_BLUR_PIXELS {
        return Err(RenderError::TooCostly);
    }
    Ok(BLUR_WORK)
}
