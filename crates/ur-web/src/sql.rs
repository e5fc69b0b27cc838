//! Plain SQL on either store, for the lobby, accounts and ratings: one
//! statement text for both (`?1`, `?2`... become `$1`, `$2`... on
//! PostgreSQL), values of four kinds.

use crate::store::{Store, StoreError};

/// A value bound to a statement or read from a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl Val {
    pub fn text(&self) -> Option<String> {
        match self {
            Val::Text(s) => Some(s.clone()),
            _ => None,
        }
    }

    pub fn int(&self) -> i64 {
        match self {
            Val::Int(i) => *i,
            Val::Real(f) => *f as i64,
            _ => 0,
        }
    }

    pub fn real(&self) -> f64 {
        match self {
            Val::Real(f) => *f,
            Val::Int(i) => *i as f64,
            _ => 0.0,
        }
    }
}

impl From<&str> for Val {
    fn from(s: &str) -> Val {
        Val::Text(s.to_string())
    }
}
impl From<String> for Val {
    fn from(s: String) -> Val {
        Val::Text(s)
    }
}
impl From<i64> for Val {
    fn from(i: i64) -> Val {
        Val::Int(i)
    }
}
impl From<f64> for Val {
    fn from(f: f64) -> Val {
        Val::Real(f)
    }
}
impl From<Option<String>> for Val {
    fn from(s: Option<String>) -> Val {
        s.map_or(Val::Null, Val::Text)
    }
}

/// One statement of a transaction, and how many rows it must change
/// (`None`: any number) for the transaction to commit.
pub struct Step {
    pub sql: String,
    pub params: Vec<Val>,
    pub expect: Option<u64>,
}

impl Step {
    pub fn new(sql: &str, params: Vec<Val>, expect: Option<u64>) -> Step {
        Step { sql: sql.to_string(), params, expect }
    }
}

/// `?N` placeholders as PostgreSQL's `$N`.
fn dollars(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

fn sqlite_value(v: &Val) -> rusqlite::types::Value {
    match v {
        Val::Null => rusqlite::types::Value::Null,
        Val::Int(i) => rusqlite::types::Value::Integer(*i),
        Val::Real(f) => rusqlite::types::Value::Real(*f),
        Val::Text(s) => rusqlite::types::Value::Text(s.clone()),
    }
}

fn sqlite_row(r: &rusqlite::Row, n: usize) -> rusqlite::Result<Vec<Val>> {
    use rusqlite::types::ValueRef;
    (0..n)
        .map(|i| {
            Ok(match r.get_ref(i)? {
                ValueRef::Null => Val::Null,
                ValueRef::Integer(i) => Val::Int(i),
                ValueRef::Real(f) => Val::Real(f),
                ValueRef::Text(t) | ValueRef::Blob(t) => Val::Text(String::from_utf8_lossy(t).into_owned()),
            })
        })
        .collect()
}

fn sqlite_query(c: &rusqlite::Connection, sql: &str, params: &[Val]) -> rusqlite::Result<Vec<Vec<Val>>> {
    let mut stmt = c.prepare_cached(sql)?;
    let n = stmt.column_count();
    let values: Vec<rusqlite::types::Value> = params.iter().map(sqlite_value).collect();
    let rows = stmt.query_map(rusqlite::params_from_iter(values), |r| sqlite_row(r, n))?;
    rows.collect()
}

type PgParam = Box<dyn tokio_postgres::types::ToSql + Sync + Send>;

fn pg_params(params: &[Val]) -> Vec<PgParam> {
    params
        .iter()
        .map(|v| -> PgParam {
            match v {
                Val::Null => Box::new(None::<String>),
                Val::Int(i) => Box::new(*i),
                Val::Real(f) => Box::new(*f),
                Val::Text(s) => Box::new(s.clone()),
            }
        })
        .collect()
}

fn pg_row(r: &tokio_postgres::Row) -> Vec<Val> {
    use tokio_postgres::types::Type;
    (0..r.len())
        .map(|i| {
            let t = r.columns()[i].type_().clone();
            if t == Type::INT8 {
                r.get::<_, Option<i64>>(i).map_or(Val::Null, Val::Int)
            } else if t == Type::INT4 {
                r.get::<_, Option<i32>>(i).map_or(Val::Null, |v| Val::Int(v.into()))
            } else if t == Type::FLOAT8 {
                r.get::<_, Option<f64>>(i).map_or(Val::Null, Val::Real)
            } else {
                r.get::<_, Option<String>>(i).map_or(Val::Null, Val::Text)
            }
        })
        .collect()
}

fn refs(params: &[PgParam]) -> Vec<&(dyn tokio_postgres::types::ToSql + Sync)> {
    params.iter().map(|p| &**p as &(dyn tokio_postgres::types::ToSql + Sync)).collect()
}

impl Store {
    /// The rows a query answers.
    pub async fn rows(&self, sql: &str, params: Vec<Val>) -> Result<Vec<Vec<Val>>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let sql = sql.to_string();
                s.read(move |c| sqlite_query(c, &sql, &params)).await
            }
            Store::Postgres(p) => {
                let values = pg_params(&params);
                let rows = p.client().query(&dollars(sql), &refs(&values)).await?;
                Ok(rows.iter().map(pg_row).collect())
            }
        }
    }

    /// One statement, committed; the rows it answers (with `RETURNING`).
    pub async fn write(&self, sql: &str, params: Vec<Val>) -> Result<Vec<Vec<Val>>, StoreError> {
        match self {
            Store::Sqlite(s) => {
                let sql = sql.to_string();
                s.call(move |c| sqlite_query(c, &sql, &params)).await
            }
            Store::Postgres(p) => {
                let values = pg_params(&params);
                let rows = p.client().query(&dollars(sql), &refs(&values)).await?;
                Ok(rows.iter().map(pg_row).collect())
            }
        }
    }

    /// Runs the steps in one transaction: committed (`true`) when each
    /// changed as many rows as it expects, else rolled back (`false`).
    pub async fn transaction(&self, steps: Vec<Step>) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => {
                s.call(move |c| {
                    c.execute_batch("SAVEPOINT steps")?;
                    for step in &steps {
                        let values: Vec<rusqlite::types::Value> = step.params.iter().map(sqlite_value).collect();
                        let n = c.execute(&step.sql, rusqlite::params_from_iter(values));
                        let ok = match n {
                            Ok(n) => step.expect.is_none_or(|e| e == n as u64),
                            Err(rusqlite::Error::SqliteFailure(f, _)) if f.code == rusqlite::ErrorCode::ConstraintViolation => false,
                            Err(e) => {
                                c.execute_batch("ROLLBACK TO steps; RELEASE steps")?;
                                return Err(e);
                            }
                        };
                        if !ok {
                            c.execute_batch("ROLLBACK TO steps; RELEASE steps")?;
                            return Ok(false);
                        }
                    }
                    c.execute_batch("RELEASE steps")?;
                    Ok(true)
                })
                .await
            }
            Store::Postgres(p) => {
                let (mut client, conn) =
                    tokio_postgres::connect(&p.url, tokio_postgres::NoTls).await.map_err(|e| StoreError::Other(e.to_string()))?;
                tokio::spawn(conn);
                let tx = client.transaction().await?;
                for step in &steps {
                    let values = pg_params(&step.params);
                    let n = match tx.execute(&dollars(&step.sql), &refs(&values)).await {
                        Ok(n) => n,
                        Err(e) if e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) => return Ok(false),
                        Err(e) => return Err(e.into()),
                    };
                    if step.expect.is_some_and(|e| e != n) {
                        return Ok(false);
                    }
                }
                tx.commit().await?;
                Ok(true)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_become_dollars() {
        assert_eq!(super::dollars("SELECT ?1, '?', ?12"), "SELECT $1, '?', $12");
    }
}
