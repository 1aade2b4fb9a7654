//! Photos larger than an answer takes (a phone camera's 12–200 MP): redrawn smaller in the
//! browser and sent as JPEG, the way the person would have had to do by hand. GIFs are left
//! alone (redrawing would stop their animation).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ImageBitmap, ImageEncodeOptions, OffscreenCanvas};

/// The longest sides tried, largest first, until the JPEG fits.
const SIDES: [f64; 3] = [2560.0, 1920.0, 1280.0];
const JPEG_QUALITY: f64 = 0.85;

/// `file` redrawn as a JPEG of at most `max_bytes`, or `None` when it cannot be (not an image
/// the browser decodes, a GIF, or still too large at the smallest size).
pub async fn to_fit(file: &web_sys::File, max_bytes: usize) -> Option<Blob> {
    if file.type_() == "image/gif" {
        return None;
    }
    let decoding = leptos::prelude::window()
        .create_image_bitmap_with_blob(file)
        .ok()?;
    let bitmap: ImageBitmap = JsFuture::from(decoding).await.ok()?.dyn_into().ok()?;
    let (width, height) = (f64::from(bitmap.width()), f64::from(bitmap.height()));
    for side in SIDES {
        let scale = (side / width.max(height)).min(1.0);
        let (drawn_width, drawn_height) = ((width * scale).round(), (height * scale).round());
        let canvas = OffscreenCanvas::new(drawn_width as u32, drawn_height as u32).ok()?;
        let context: web_sys::OffscreenCanvasRenderingContext2d =
            canvas.get_context("2d").ok()??.dyn_into().ok()?;
        context
            .draw_image_with_image_bitmap_and_dw_and_dh(
                &bitmap,
                0.0,
                0.0,
                drawn_width,
                drawn_height,
            )
            .ok()?;
        let options = ImageEncodeOptions::new();
        options.set_type("image/jpeg");
        options.set_quality(JPEG_QUALITY);
        let encoding = canvas.convert_to_blob_with_options(&options).ok()?;
        let blob: Blob = JsFuture::from(encoding).await.ok()?.dyn_into().ok()?;
        if blob.size() <= max_bytes as f64 {
            bitmap.close();
            return Some(blob);
        }
    }
    bitmap.close();
    None
}
