//! The patch format of the transition fixtures (scripts/shuluri_native_transitions.py `diff`): how a
//! saved state changed by one action, for the tests and the bench that replay them.

use serde_json::Value;

/// Apply a patch: {"$set": v} replaces, {"$app": [...]} appends to a list, {"$idx": {i: patch}}
/// patches list items, any other object patches a dict's keys.
pub fn patch(a: &mut Value, p: &Value) {
    let p = p.as_object().expect("a patch is an object");
    if let Some(v) = p.get("$set") {
        *a = v.clone();
    } else if let Some(v) = p.get("$app") {
        a.as_array_mut().expect("a list").extend(v.as_array().expect("items").iter().cloned());
    } else if let Some(v) = p.get("$idx") {
        for (i, q) in v.as_object().expect("indices") {
            patch(&mut a[i.parse::<usize>().expect("an index")], q);
        }
    } else {
        for (k, q) in p {
            patch(a.get_mut(k).expect("a key of the state"), q);
        }
    }
}
