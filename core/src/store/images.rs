//! Answers' images (SPEC §13): decoding what was sent, checking that the bytes are the type
//! they claim (`infer` reads the magic numbers), and the bytes' shape on their way to the log.

pub use crate::log::StoredImage;
use crate::model::{ErrorBody, SubQuestionAnswer, limits, validate_images};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// The bytes as the API sends them.
pub fn base64(image: &StoredImage) -> String {
    STANDARD.encode(&image.bytes)
}

/// Decodes every image in `answers`: the answers come back with `size` set and `data` gone,
/// and the bytes beside them. CPU-bound (up to 16 images of 5 MB): call it off the runtime's
/// workers.
///
/// # Errors
/// Naming the image's field: too many, a type not accepted, no data, data that is not base64,
/// too large, or bytes that are not the type claimed.
pub fn take(
    answers: &[SubQuestionAnswer],
) -> Result<(Vec<SubQuestionAnswer>, Vec<StoredImage>), ErrorBody> {
    let mut stored = Vec::new();
    let mut kept = Vec::with_capacity(answers.len());
    for (index, answer) in answers.iter().enumerate() {
        validate_images(index, &answer.images)?;
        let mut without = answer.without_image_data();
        for (place, image) in answer.images.iter().enumerate() {
            let bytes = decode(index, place, &image.media_type, image.data.as_deref())?;
            without.images[place].size = bytes.len() as u64;
            stored.push(StoredImage {
                answer: index,
                place,
                media_type: image.media_type.clone(),
                bytes: bytes.into(),
            });
        }
        kept.push(without);
    }
    Ok((kept, stored))
}

fn decode(
    index: usize,
    place: usize,
    media_type: &str,
    data: Option<&str>,
) -> Result<Vec<u8>, ErrorBody> {
    let field = format!("answers[{index}].images[{place}].data");
    let data = data.map(str::trim).unwrap_or_default();
    if data.is_empty() {
        return Err(ErrorBody::field(
            &field,
            format!("{field} is missing: send the image's bytes in base64"),
        ));
    }
    let limit_mb = limits::MAX_IMAGE_BYTES / (1024 * 1024);
    let too_large = |size: usize| {
        ErrorBody::field(
            &field,
            format!(
                "{field} is an image of {:.1} MB; the limit is {limit_mb} MB",
                size as f64 / (1024.0 * 1024.0)
            ),
        )
    };
    // Refused before decoding: the length alone tells.
    let at_least = (data.len() / 4 * 3).saturating_sub(2);
    if at_least > limits::MAX_IMAGE_BYTES {
        return Err(too_large(at_least));
    }
    let bytes = STANDARD.decode(data).map_err(|_| {
        ErrorBody::field(
            &field,
            format!("{field} is not base64 (standard alphabet, without a \"data:\" prefix)"),
        )
    })?;
    if bytes.len() > limits::MAX_IMAGE_BYTES {
        return Err(too_large(bytes.len()));
    }
    let found = infer::get(&bytes).map(|kind| kind.mime_type());
    if found != Some(media_type) {
        let what = match found {
            Some(found) if found.starts_with("image/") => format!("its bytes are {found}"),
            _ => "its bytes are not a PNG, JPEG, WebP or GIF image".to_string(),
        };
        return Err(ErrorBody::field(
            &field,
            format!("{field} does not hold the {media_type} it claims: {what}"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::model::AnswerImage;

    /// The smallest PNG: a 1×1 transparent pixel.
    pub(in crate::store) const PNG: &[u8] = &[
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00,
        0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ];

    fn with_image(media_type: &str, data: Option<String>) -> Vec<SubQuestionAnswer> {
        vec![SubQuestionAnswer {
            free_text: Some("see".into()),
            images: vec![AnswerImage {
                media_type: media_type.into(),
                data,
                size: 0,
            }],
            ..SubQuestionAnswer::default()
        }]
    }

    fn refusal(answers: &[SubQuestionAnswer]) -> ErrorBody {
        take(answers).expect_err("refused")
    }

    #[test]
    fn an_image_is_split_from_its_answer() {
        let (answers, stored) = take(&with_image("image/png", Some(STANDARD.encode(PNG)))).unwrap();
        assert_eq!(answers[0].images[0].data, None);
        assert_eq!(answers[0].images[0].size, PNG.len() as u64);
        assert_eq!(stored.len(), 1);
        assert_eq!(&*stored[0].bytes, PNG);
        assert_eq!(base64(&stored[0]), STANDARD.encode(PNG));
    }

    #[test]
    fn every_refusal_names_the_field() {
        let wrong_type = refusal(&with_image("image/jpeg", Some(STANDARD.encode(PNG))));
        assert_eq!(
            wrong_type.field.as_deref(),
            Some("answers[0].images[0].data")
        );
        assert!(
            wrong_type.error.contains("its bytes are image/png"),
            "{}",
            wrong_type.error
        );

        let text = refusal(&with_image(
            "image/png",
            Some(STANDARD.encode("hello, world")),
        ));
        assert!(
            text.error.contains("not a PNG, JPEG, WebP or GIF"),
            "{}",
            text.error
        );

        let svg = refusal(&with_image(
            "image/svg+xml",
            Some(STANDARD.encode("<svg/>")),
        ));
        assert_eq!(svg.field.as_deref(), Some("answers[0].images[0].mediaType"));

        let missing = refusal(&with_image("image/png", None));
        assert!(missing.error.contains("is missing"), "{}", missing.error);

        let data_url = format!("data:image/png;base64,{}", STANDARD.encode(PNG));
        let not_base64 = refusal(&with_image("image/png", Some(data_url)));
        assert!(
            not_base64.error.contains("not base64"),
            "{}",
            not_base64.error
        );

        let mut huge = PNG.to_vec();
        huge.resize(limits::MAX_IMAGE_BYTES + 1, 0);
        let too_large = refusal(&with_image("image/png", Some(STANDARD.encode(&huge))));
        assert!(
            too_large.error.contains("the limit is 5 MB"),
            "{}",
            too_large.error
        );

        let mut five = with_image("image/png", Some(STANDARD.encode(PNG)));
        let image = five[0].images[0].clone();
        five[0].images = vec![image; 5];
        let too_many = refusal(&five);
        assert_eq!(too_many.field.as_deref(), Some("answers[0].images"));
    }
}
