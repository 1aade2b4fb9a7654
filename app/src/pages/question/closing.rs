//! What the question page's server functions do after the store took an answer or refused it.

use crate::failure::Failure;
use hark_core::model::QuestionId;

/// Where to go after a question is dealt with: the oldest pending question, or the inbox.
pub fn open_next(store: &hark_core::store::Store) {
    let next = store.pending().into_iter().next();
    let target = next.map_or_else(|| "/".to_string(), |question| format!("/q/{}", question.id));
    leptos_axum::redirect(&target);
}

/// Turns a store refusal of server function `F` about question `id` into its error, with the
/// matching HTTP status (or, for a plain form post, back to the question's page).
pub fn refused<F: leptos::server_fn::ServerFn>(
    id: QuestionId,
) -> impl FnOnce(hark_core::store::StoreError) -> Failure {
    move |error| crate::failure::refuse::<F>(&format!("/q/{id}"), error.into())
}
