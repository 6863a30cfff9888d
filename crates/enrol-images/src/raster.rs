//! Area-averaging resize of decoded pixels, and WebP encoding.

use webp::PixelLayout;

use crate::{Encoded, MAX_OUTPUT_PIXELS, RenderError};

/// Interleaved 8-bit pixels (RGB, or RGBA: premultiplied from a PNG or an
/// SVG, straight from a WebP).
pub(crate) struct Raster<'a> {
    pub(crate) pixels: &'a [u8],
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) channels: usize,
}

impl Raster<'_> {
    /// Scaled down to `width` (never up) by area averaging: each output
    /// pixel is the mean of the source area it covers, so fine detail
    /// averages out instead of aliasing.
    pub(crate) fn scaled_to(&self, width: u32) -> Result<(Vec<u8>, u32, u32), RenderError> {
        let width = width.min(self.width);
        let height = ((u64::from(width) * u64::from(self.height) + u64::from(self.width) / 2) / u64::from(self.width)).max(1);
        if u64::from(width) * height > MAX_OUTPUT_PIXELS {
            return Err(RenderError::TooLarge { width: u64::from(width), height });
        }
        let height = height as u32;
        if width == self.width && height == self.height {
            return Ok((self.pixels.to_vec(), width, height));
        }
        let channels = self.channels;
        let (source_width, source_height) = (self.width as usize, self.height as usize);
        let (target_width, target_height) = (width as usize, height as usize);
        let columns = area_weights(source_width, target_width);
        let rows = area_weights(source_height, target_height);
        let row_len = target_width * channels;
        let mut out = Vec::with_capacity(row_len * target_height);
        let mut accumulated = vec![0f32; row_len];
        // The last source row scaled horizontally: each one serves at most
        // two output rows, one after the other.
        let mut scaled_row = vec![0f32; row_len];
        let mut scaled_index = usize::MAX;
        for row_weights in &rows {
            accumulated.fill(0.0);
            for &(y, wy) in row_weights {
                if scaled_index != y {
                    let source_row = &self.pixels[y * source_width * channels..(y + 1) * source_width * channels];
                    for (x, column_weights) in columns.iter().enumerate() {
                        let target = &mut scaled_row[x * channels..(x + 1) * channels];
                        target.fill(0.0);
                        for &(sx, wx) in column_weights {
                            for (c, value) in target.iter_mut().enumerate() {
                                *value += wx * f32::from(source_row[sx * channels + c]);
                            }
                        }
                    }
                    scaled_index = y;
                }
                for (sum, value) in accumulated.iter_mut().zip(&scaled_row) {
                    *sum += wy * value;
                }
            }
            out.extend(accumulated.iter().map(|v| v.round().clamp(0.0, 255.0) as u8));
        }
        Ok((out, width, height))
    }
}

/// For each of `target` cells spread over `source` cells: the source cells
/// it overlaps and the share of the target cell each covers (summing to 1).
pub(crate) fn area_weights(source: usize, target: usize) -> Vec<Vec<(usize, f32)>> {
    let scale = source as f64 / target as f64;
    (0..target)
        .map(|i| {
            let start = i as f64 * scale;
            let end = ((i + 1) as f64 * scale).min(source as f64);
            let first = start.floor() as usize;
            let last = (end.ceil() as usize).clamp(first + 1, source);
            (first..last)
                .map(|s| {
                    let overlap = (end.min(s as f64 + 1.0) - start.max(s as f64)).max(0.0);
                    (s, (overlap / (end - start)) as f32)
                })
                .filter(|&(_, weight)| weight > 0.0)
                .collect()
        })
        .collect()
}

/// Premultiplied RGBA to straight RGBA, in place.
pub(crate) fn demultiply(pixels: &mut [u8]) {
    for pixel in pixels.chunks_exact_mut(4) {
        let alpha = u32::from(pixel[3]);
        if alpha != 0 && alpha != 255 {
            for channel in &mut pixel[..3] {
                *channel = ((u32::from(*channel) * 255 + alpha / 2) / alpha).min(255) as u8;
            }
        }
    }
}

pub(crate) fn encode(pixels: &[u8], layout: PixelLayout, width: u32, height: u32, quality: f32) -> Result<Encoded, RenderError> {
    let mut config = webp::WebPConfig::new().map_err(|()| RenderError::Encode("libwebp has no default config".to_owned()))?;
    config.lossless = 0;
    config.quality = quality;
    config.method = 4;
    config.alpha_compression = 1;
    let webp =
        webp::Encoder::new(pixels, layout, width, height).encode_advanced(&config).map_err(|e| RenderError::Encode(format!("{e:?}")))?;
    Ok(Encoded { webp: webp.to_vec(), width, height })
}
