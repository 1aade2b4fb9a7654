//! An answer's image is what it claims only when its bytes are that image from the first to the
//! last: its size read from its header (`imagesize`), at most `MAX_IMAGE_MEGAPIXELS`, and its
//! container whole with nothing after its end (a PNG's chunks from `IHDR` to `IEND`, a WebP's
//! RIFF length, a GIF's trailer, a JPEG's end marker), so a file that is also a page or a
//! script does not pass for a picture. Pixels are not decoded: a 40-megapixel image would hold
//! 160 MB while checked. The container walks are hand-written because `imagesize` reads the
//! header only, and the codecs that check more decode every pixel.

use crate::model::limits::MAX_IMAGE_MEGAPIXELS;

/// Checks `bytes`, whose leading bytes already say they are `media_type`; the problem, as the
/// rest of a sentence after the field's name.
pub fn check(bytes: &[u8], media_type: &str) -> Result<(), String> {
    let whole = match media_type {
        "image/png" => png_is_whole(bytes),
        "image/webp" => webp_is_whole(bytes),
        "image/gif" => bytes.last() == Some(&0x3B),
        // Some cameras pad a JPEG with zeros after its end; zeros hide nothing.
        "image/jpeg" => {
            let end = bytes
                .iter()
                .rposition(|byte| *byte != 0)
                .map_or(0, |at| at + 1);
            bytes.starts_with(&[0xFF, 0xD8]) && bytes[..end].ends_with(&[0xFF, 0xD9])
        }
        _ => false,
    };
    if !whole {
        return Err(format!(
            "is not a whole {media_type} image: its bytes are cut short, or go on after the image ends"
        ));
    }

    let size = imagesize::blob_size(bytes)
        .map_err(|_| format!("is not a readable {media_type} image: its header is damaged"))?;
    let (width, height) = (size.width as u64, size.height as u64);
    if width == 0 || height == 0 {
        return Err(format!(
            "is a {media_type} image without pixels ({width}×{height})"
        ));
    }
    let pixels = width.saturating_mul(height);
    if pixels > MAX_IMAGE_MEGAPIXELS * 1_000_000 {
        return Err(format!(
            "is {width}×{height} pixels ({} megapixels); the limit is {MAX_IMAGE_MEGAPIXELS}",
            pixels / 1_000_000
        ));
    }
    Ok(())
}

/// The PNG signature, then chunks (length, type, data, CRC) from `IHDR` to `IEND`, which ends
/// the file.
fn png_is_whole(bytes: &[u8]) -> bool {
    let mut at = 8;
    let mut first = true;
    while let Some(head) = bytes.get(at..at + 8) {
        let length = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let kind = &head[4..8];
        if first && (kind != b"IHDR" || length != 13) {
            return false;
        }
        first = false;
        let Some(end) = at.checked_add(12).and_then(|end| end.checked_add(length)) else {
            return false;
        };
        if end > bytes.len() {
            return false;
        }
        if kind == b"IEND" {
            return end == bytes.len();
        }
        at = end;
    }
    false
}

/// `RIFF`, the length of what follows, `WEBP`: the length accounts for every byte.
fn webp_is_whole(bytes: &[u8]) -> bool {
    let Some(length) = bytes.get(4..8) else {
        return false;
    };
    let length = u32::from_le_bytes([length[0], length[1], length[2], length[3]]) as usize;
    length.checked_add(8) == Some(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::images::tests::PNG;

    #[test]
    fn a_whole_small_image_passes() {
        assert_eq!(check(PNG, "image/png"), Ok(()));
    }

    #[test]
    fn a_png_signature_followed_by_a_page_is_refused() {
        let mut page = b"\x89PNG\r\n\x1a\n".to_vec();
        page.extend_from_slice(b"<html><script>alert(1)</script></html>");
        let refused = check(&page, "image/png").unwrap_err();
        assert!(refused.contains("image/png"), "{refused}");
    }

    #[test]
    fn anything_after_the_image_is_refused() {
        let mut polyglot = PNG.to_vec();
        polyglot.extend_from_slice(b"<script>alert(1)</script>");
        assert!(
            check(&polyglot, "image/png")
                .unwrap_err()
                .contains("after the image ends")
        );
        let cut = &PNG[..PNG.len() - 4];
        assert!(check(cut, "image/png").is_err(), "cut short");
    }

    #[test]
    fn a_header_claiming_too_many_pixels_is_refused_by_size() {
        // 60000×60000 in IHDR, a few bytes in all.
        let mut huge = PNG.to_vec();
        huge[16..20].copy_from_slice(&60_000_u32.to_be_bytes());
        huge[20..24].copy_from_slice(&60_000_u32.to_be_bytes());
        let refused = check(&huge, "image/png").unwrap_err();
        assert!(
            refused.contains("60000×60000") && refused.contains("the limit is 40"),
            "{refused}"
        );
    }

    #[test]
    fn each_type_is_held_to_its_own_end() {
        let gif = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";
        assert_eq!(check(gif, "image/gif"), Ok(()));
        let mut gif_and_more = gif.to_vec();
        gif_and_more.extend_from_slice(b"<html>");
        assert!(check(&gif_and_more, "image/gif").is_err());
        let mut webp = b"RIFF\0\0\0\0WEBPVP8L\x0a\0\0\0\x2f\0\0\0\x10\x07\x10\x11\x11\x88".to_vec();
        let length = (webp.len() - 8) as u32;
        webp[4..8].copy_from_slice(&length.to_le_bytes());
        assert_eq!(check(&webp, "image/webp"), Ok(()));
        webp.extend_from_slice(b"<html>");
        assert!(check(&webp, "image/webp").is_err());
    }
}
