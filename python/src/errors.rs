//! The exceptions the package raises: each a `ValueError`, so callers that
//! catch that keep working.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;
use ur_session::SessionError;

create_exception!(_ur, IllegalActionError, PyValueError, "An action, throw or position the rules do not allow now.");
create_exception!(_ur, RulesError, PyValueError, "An unknown rule set, a bad option or an unreadable rule-set file.");
create_exception!(_ur, RecordError, PyValueError, "A record, RGN text or pickled game that does not replay.");

pub fn illegal(message: String) -> PyErr {
    IllegalActionError::new_err(message)
}

pub fn rules_error(message: String) -> PyErr {
    RulesError::new_err(message)
}

pub fn record_error(message: String) -> PyErr {
    RecordError::new_err(message)
}

pub fn session_error(e: SessionError) -> PyErr {
    match e {
        SessionError::Rules(e) => rules_error(e.to_string()),
        SessionError::Record(e) => record_error(e),
        e => illegal(e.to_string()),
    }
}
