//! Photos larger than an answer takes (a phone camera's 12–200 MP): redrawn smaller in the
//! browser and sent as JPEG, the way the person would have had to do by hand. GIFs are left
//! alone (redrawing would stop their animation). Transparent parts become white, as JPEG has no
//! transparency (black would hide dark text drawn on them).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ImageBitmap, ImageEncodeOptions, OffscreenCanvas};

/// The longest sides tried, largest first, until the JPEG fits.
const SIDES: [f64; 3] = [2560.0, 1920.0, 1280.0];
/// Where a phone photo stops looking better and only weighs more.
const JPEG_QUALITY: f64 = 0.85;

/// Why a file could not be redrawn to fit.
pub enum Unfit {
    /// Not an image the browser decodes (or a GIF, which is not redrawn).
    Undecodable,
    /// Still too large at the smallest size tried.
    TooLarge,
}

/// `file` redrawn as a JPEG of at most `max_bytes`.
///
/// # Errors
/// `Unfit` says why not.
pub async fn to_fit(file: &web_sys::File, max_bytes: usize) -> Result<Blob, Unfit> {
    if file.type_() == "image/gif" {
        return Err(Unfit::Undecodable);
    }
    let decoding = leptos::prelude::window()
        .create_image_bitmap_with_blob(file)
        .map_err(|_| Unfit::Undecodable)?;
    let bitmap: ImageBitmap = JsFuture::from(decoding)
        .await
        .ok()
        .and_then(|bitmap| bitmap.dyn_into().ok())
        .ok_or(Unfit::Undecodable)?;
    let redrawn = redraw(&bitmap, max_bytes).await;
    // The decoded pixels (hundreds of MB for a large photo) go now, not at collection.
    bitmap.close();
    redrawn.ok_or(Unfit::TooLarge)
}

async fn redraw(bitmap: &ImageBitmap, max_bytes: usize) -> Option<Blob> {
    let (width, height) = (f64::from(bitmap.width()), f64::from(bitmap.height()));
    for side in SIDES {
        let scale = (side / width.max(height)).min(1.0);
        let (drawn_width, drawn_height) = ((width * scale).round(), (height * scale).round());
        let canvas = OffscreenCanvas::new(drawn_width as u32, drawn_height as u32).ok()?;
        let context: web_sys::OffscreenCanvasRenderingContext2d =
            canvas.get_context("2d").ok()??.dyn_into().ok()?;
        context.set_fill_style_str("#ffffff");
        context.fill_rect(0.0, 0.0, drawn_width, drawn_height);
        context
            .draw_image_with_image_bitmap_and_dw_and_dh(bitmap, 0.0, 0.0, drawn_width, drawn_height)
            .ok()?;
        let options = ImageEncodeOptions::new();
        options.set_type("image/jpeg");
        options.set_quality(JPEG_QUALITY);
        let encoding = canvas.convert_to_blob_with_options(&options).ok()?;
        let blob: Blob = JsFuture::from(encoding).await.ok()?.dyn_into().ok()?;
        if blob.size() <= max_bytes as f64 {
            return Some(blob);
        }
        if scale >= 1.0 {
            // Already at full size: smaller sides would redraw the same image.
            return None;
        }
    }
    None
}
