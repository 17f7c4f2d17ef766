//! Turning obsim-core's result structs into Python objects, column by column.
//!
//! The result types only promise `serde::Serialize`, so the binding does not
//! depend on their exact fields: a new column in `FlowResult` or `TraceTable`
//! shows up in Python without touching this crate. Serialization goes through
//! [`Cell`], a tiny value tree that keeps struct field order and the
//! difference between integers and floats. Numeric and boolean columns become
//! `NumPy` arrays (built from one byte buffer, so a million-row trace costs one
//! copy instead of a million Python objects); other columns become lists.

use std::fmt;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde::ser;
use serde::Serialize;

/// A serialized value: what serde tells us, with field order kept.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// `None`, `()`, unit structs.
    Null,
    /// A boolean.
    Bool(bool),
    /// A signed integer.
    I64(i64),
    /// An unsigned integer.
    U64(u64),
    /// A float (`f32` widened).
    F64(f64),
    /// A string, char, or unit enum variant.
    Str(String),
    /// A sequence, tuple or byte string, stored as a typed [`Column`] so long
    /// numeric sequences stay compact.
    Seq(Column),
    /// A map with arbitrary keys.
    Map(Vec<(Cell, Cell)>),
    /// A struct (or struct variant): fields in declaration order.
    Struct(Vec<(String, Cell)>),
}

/// Error while serializing into a [`Cell`] (only custom errors from
/// `Serialize` impls can occur).
#[derive(Debug)]
pub struct CellError(String);

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CellError {}

impl ser::Error for CellError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

/// Serializes any value into a [`Cell`].
pub fn to_cell<T: Serialize + ?Sized>(value: &T) -> Result<Cell, CellError> {
    value.serialize(CellSer)
}

/// The serde serializer producing [`Cell`]s.
struct CellSer;

/// Collects the elements of a sequence-like value.
struct SeqSer(Column);
/// Collects the entries of a map.
struct MapSer(Vec<(Cell, Cell)>, Option<Cell>);
/// Collects the fields of a struct.
struct StructSer(Vec<(String, Cell)>);
/// Wraps a variant's content as `{variant: content}`.
struct VariantSer<S>(&'static str, S);

impl ser::Serializer for CellSer {
    type Ok = Cell;
    type Error = CellError;
    type SerializeSeq = SeqSer;
    type SerializeTuple = SeqSer;
    type SerializeTupleStruct = SeqSer;
    type SerializeTupleVariant = VariantSer<SeqSer>;
    type SerializeMap = MapSer;
    type SerializeStruct = StructSer;
    type SerializeStructVariant = VariantSer<StructSer>;

    fn serialize_bool(self, v: bool) -> Result<Cell, CellError> {
        Ok(Cell::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Cell, CellError> {
        Ok(Cell::I64(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Cell, CellError> {
        Ok(Cell::I64(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Cell, CellError> {
        Ok(Cell::I64(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Cell, CellError> {
        Ok(Cell::I64(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Cell, CellError> {
        Ok(Cell::U64(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Cell, CellError> {
        Ok(Cell::U64(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Cell, CellError> {
        Ok(Cell::U64(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Cell, CellError> {
        Ok(Cell::U64(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Cell, CellError> {
        Ok(Cell::F64(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<Cell, CellError> {
        Ok(Cell::F64(v))
    }
    fn serialize_char(self, v: char) -> Result<Cell, CellError> {
        Ok(Cell::Str(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Cell, CellError> {
        Ok(Cell::Str(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Cell, CellError> {
        Ok(Cell::Seq(Column::I64(
            v.iter().map(|&b| i64::from(b)).collect(),
        )))
    }
    fn serialize_none(self) -> Result<Cell, CellError> {
        Ok(Cell::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Cell, CellError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Cell, CellError> {
        Ok(Cell::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Cell, CellError> {
        Ok(Cell::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Cell, CellError> {
        Ok(Cell::Str(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Cell, CellError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Cell, CellError> {
        Ok(Cell::Struct(vec![(
            variant.to_owned(),
            value.serialize(self)?,
        )]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer, CellError> {
        Ok(SeqSer(Column::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer, CellError> {
        Ok(SeqSer(Column::with_capacity(len)))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqSer, CellError> {
        Ok(SeqSer(Column::with_capacity(len)))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSer<SeqSer>, CellError> {
        Ok(VariantSer(variant, SeqSer(Column::with_capacity(len))))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapSer, CellError> {
        Ok(MapSer(Vec::with_capacity(len.unwrap_or(0)), None))
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<StructSer, CellError> {
        Ok(StructSer(Vec::with_capacity(len)))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSer<StructSer>, CellError> {
        Ok(VariantSer(variant, StructSer(Vec::with_capacity(len))))
    }
}

impl ser::SerializeSeq for SeqSer {
    type Ok = Cell;
    type Error = CellError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CellError> {
        self.0.push(to_cell(value)?);
        Ok(())
    }
    fn end(self) -> Result<Cell, CellError> {
        Ok(Cell::Seq(self.0))
    }
}

impl ser::SerializeTuple for SeqSer {
    type Ok = Cell;
    type Error = CellError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CellError> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Cell, CellError> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqSer {
    type Ok = Cell;
    type Error = CellError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CellError> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Cell, CellError> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for VariantSer<SeqSer> {
    type Ok = Cell;
    type Error = CellError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CellError> {
        ser::SerializeSeq::serialize_element(&mut self.1, value)
    }
    fn end(self) -> Result<Cell, CellError> {
        Ok(Cell::Struct(vec![(
            self.0.to_owned(),
            Cell::Seq(self.1 .0),
        )]))
    }
}

impl ser::SerializeMap for MapSer {
    type Ok = Cell;
    type Error = CellError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), CellError> {
        self.1 = Some(to_cell(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), CellError> {
        let key = self
            .1
            .take()
            .ok_or_else(|| CellError("map value without a key".into()))?;
        self.0.push((key, to_cell(value)?));
        Ok(())
    }
    fn end(self) -> Result<Cell, CellError> {
        Ok(Cell::Map(self.0))
    }
}

impl ser::SerializeStruct for StructSer {
    type Ok = Cell;
    type Error = CellError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), CellError> {
        self.0.push((key.to_owned(), to_cell(value)?));
        Ok(())
    }
    fn end(self) -> Result<Cell, CellError> {
        Ok(Cell::Struct(self.0))
    }
}

impl ser::SerializeStructVariant for VariantSer<StructSer> {
    type Ok = Cell;
    type Error = CellError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), CellError> {
        ser::SerializeStruct::serialize_field(&mut self.1, key, value)
    }
    fn end(self) -> Result<Cell, CellError> {
        Ok(Cell::Struct(vec![(
            self.0.to_owned(),
            Cell::Struct(self.1 .0),
        )]))
    }
}

/// One typed column, built cell by cell. The first value decides the type;
/// a value of another type turns the column into [`Column::Any`].
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    /// Floats (`NumPy` `float64`).
    F64(Vec<f64>),
    /// Integers, signed or unsigned below 2^63 (`NumPy` `int64`).
    I64(Vec<i64>),
    /// Booleans (`NumPy` `bool`).
    Bool(Vec<bool>),
    /// Strings (a list of `str`).
    Str(Vec<String>),
    /// Anything else, or mixed types (a list of Python objects).
    Any(Vec<Cell>),
}

impl Column {
    /// An empty column whose type the first pushed value decides.
    pub fn with_capacity(n: usize) -> Self {
        Self::Any(Vec::with_capacity(n))
    }

    /// An empty column of the type `template` would start.
    pub fn like(template: &Cell) -> Self {
        match template {
            Cell::F64(_) => Self::F64(Vec::new()),
            Cell::I64(_) | Cell::U64(_) => Self::I64(Vec::new()),
            Cell::Bool(_) => Self::Bool(Vec::new()),
            Cell::Str(_) => Self::Str(Vec::new()),
            _ => Self::Any(Vec::new()),
        }
    }

    /// Appends `cell`; a cell that does not fit the column's type turns the
    /// column into [`Column::Any`] (no value is ever lost or coerced).
    pub fn push(&mut self, cell: Cell) {
        // Unsigned values that fit are stored as int64, like Arrow's default.
        let cell = match cell {
            Cell::U64(x) => i64::try_from(x).map_or(Cell::U64(x), Cell::I64),
            c => c,
        };
        if let Self::Any(v) = self {
            if v.is_empty() {
                let cap = v.capacity();
                *self = Self::like(&cell);
                self.reserve(cap);
            }
        }
        match (&mut *self, cell) {
            (Self::F64(v), Cell::F64(x)) => v.push(x),
            (Self::I64(v), Cell::I64(x)) => v.push(x),
            (Self::Bool(v), Cell::Bool(x)) => v.push(x),
            (Self::Str(v), Cell::Str(x)) => v.push(x),
            (Self::Any(v), x) => v.push(x),
            (_, x) => {
                let mut cells = self.take_cells();
                cells.push(x);
                *self = Self::Any(cells);
            }
        }
    }

    fn reserve(&mut self, n: usize) {
        match self {
            Self::F64(v) => v.reserve(n),
            Self::I64(v) => v.reserve(n),
            Self::Bool(v) => v.reserve(n),
            Self::Str(v) => v.reserve(n),
            Self::Any(v) => v.reserve(n),
        }
    }

    fn take_cells(&mut self) -> Vec<Cell> {
        match std::mem::replace(self, Self::Any(Vec::new())) {
            Self::F64(v) => v.into_iter().map(Cell::F64).collect(),
            Self::I64(v) => v.into_iter().map(Cell::I64).collect(),
            Self::Bool(v) => v.into_iter().map(Cell::Bool).collect(),
            Self::Str(v) => v.into_iter().map(Cell::Str).collect(),
            Self::Any(v) => v,
        }
    }

    /// Converts to a `NumPy` array (numbers, booleans) or a list.
    pub fn into_py<'py>(
        self,
        py: Python<'py>,
        numpy: &Bound<'py, PyModule>,
    ) -> PyResult<Bound<'py, PyAny>> {
        fn array<'py>(
            py: Python<'py>,
            numpy: &Bound<'py, PyModule>,
            bytes: &[u8],
            dtype: &str,
        ) -> PyResult<Bound<'py, PyAny>> {
            numpy.call_method1("frombuffer", (PyBytes::new(py, bytes), dtype))
        }
        fn le_bytes<const N: usize, T: Copy>(v: &[T], to: impl Fn(T) -> [u8; N]) -> Vec<u8> {
            let mut out = Vec::with_capacity(v.len() * N);
            for &x in v {
                out.extend_from_slice(&to(x));
            }
            out
        }
        match self {
            Self::F64(v) => array(py, numpy, &le_bytes(&v, f64::to_le_bytes), "<f8"),
            Self::I64(v) => array(py, numpy, &le_bytes(&v, i64::to_le_bytes), "<i8"),
            Self::Bool(v) => array(
                py,
                numpy,
                &v.iter().map(|&b| u8::from(b)).collect::<Vec<u8>>(),
                "?",
            ),
            Self::Str(_) | Self::Any(_) => Ok(self.to_list(py)?.into_any()),
        }
    }
}

impl Column {
    /// Converts to a list of plain Python objects.
    pub fn to_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Ok(match self {
            Self::F64(v) => PyList::new(py, v)?,
            Self::I64(v) => PyList::new(py, v)?,
            Self::Bool(v) => PyList::new(py, v)?,
            Self::Str(v) => PyList::new(py, v)?,
            Self::Any(v) => {
                let list = PyList::empty(py);
                for c in v {
                    list.append(cell_to_py(py, c)?)?;
                }
                list
            }
        })
    }
}

/// Converts a cell to plain Python objects (dicts keep field order).
pub fn cell_to_py<'py>(py: Python<'py>, cell: &Cell) -> PyResult<Bound<'py, PyAny>> {
    Ok(match cell {
        Cell::Null => py.None().into_bound(py),
        Cell::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Cell::I64(i) => i.into_pyobject(py)?.into_any(),
        Cell::U64(u) => u.into_pyobject(py)?.into_any(),
        Cell::F64(f) => f.into_pyobject(py)?.into_any(),
        Cell::Str(s) => s.into_pyobject(py)?.into_any(),
        Cell::Seq(col) => col.to_list(py)?.into_any(),
        Cell::Map(entries) => {
            let dict = PyDict::new(py);
            for (k, v) in entries {
                dict.set_item(cell_to_py(py, k)?, cell_to_py(py, v)?)?;
            }
            dict.into_any()
        }
        Cell::Struct(fields) => {
            let dict = PyDict::new(py);
            for (k, v) in fields {
                dict.set_item(k, cell_to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// Named columns in field order.
pub type Columns = Vec<(String, Column)>;

/// Pivots rows (structs) into columns. Names, order and types come from
/// `T::default()`, so an empty table still has typed columns.
pub fn rows_to_columns<T: Serialize + Default>(rows: &[T]) -> Result<Columns, CellError> {
    let Cell::Struct(template) = to_cell(&T::default())? else {
        return Err(CellError("a result row must serialize as a struct".into()));
    };
    let mut columns: Columns = template
        .iter()
        .map(|(k, c)| (k.clone(), Column::like(c)))
        .collect();
    for row in rows {
        let Cell::Struct(fields) = to_cell(row)? else {
            return Err(CellError("a result row must serialize as a struct".into()));
        };
        for ((name, col), (key, cell)) in columns.iter_mut().zip(fields) {
            if *name != key {
                return Err(CellError(format!(
                    "result row field {key:?} where {name:?} was expected"
                )));
            }
            col.push(cell);
        }
    }
    Ok(columns)
}

/// Splits a struct of sequences (a column-oriented table such as the trace)
/// into columns; a field that is not a sequence becomes a one-value column.
pub fn struct_to_columns<T: Serialize>(table: &T) -> Result<Columns, CellError> {
    let Cell::Struct(fields) = to_cell(table)? else {
        return Err(CellError(
            "a column table must serialize as a struct".into(),
        ));
    };
    Ok(fields
        .into_iter()
        .map(|(k, c)| {
            let col = match c {
                Cell::Seq(col) => col,
                other => {
                    let mut col = Column::with_capacity(1);
                    col.push(other);
                    col
                }
            };
            (k, col)
        })
        .collect())
}

/// Converts columns to a Python dict `{name: ndarray | list}`.
pub fn columns_to_py(py: Python<'_>, columns: Columns) -> PyResult<Bound<'_, PyDict>> {
    let numpy = py.import("numpy")?;
    let dict = PyDict::new(py);
    for (name, col) in columns {
        dict.set_item(name, col.into_py(py, &numpy)?)?;
    }
    Ok(dict)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Default)]
    struct Row {
        id: u32,
        name: String,
        x: f64,
        ok: bool,
        opt: Option<u8>,
    }

    #[derive(Serialize)]
    struct Table {
        t: Vec<f64>,
        n: Vec<u64>,
    }

    #[test]
    fn rows_pivot_in_field_order_with_types() {
        let rows = [
            Row {
                id: 1,
                name: "a".into(),
                x: 0.5,
                ok: true,
                opt: None,
            },
            Row {
                id: 2,
                name: "b".into(),
                x: f64::NAN,
                ok: false,
                opt: Some(3),
            },
        ];
        let cols = rows_to_columns(&rows).unwrap();
        let names: Vec<&str> = cols.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["id", "name", "x", "ok", "opt"]);
        assert_eq!(cols[0].1, Column::I64(vec![1, 2]));
        assert_eq!(cols[1].1, Column::Str(vec!["a".into(), "b".into()]));
        assert!(
            matches!(&cols[2].1, Column::F64(v) if v[0].to_bits() == 0.5f64.to_bits() && v[1].is_nan())
        );
        assert_eq!(cols[3].1, Column::Bool(vec![true, false]));
        assert_eq!(cols[4].1, Column::Any(vec![Cell::Null, Cell::I64(3)]));
    }

    #[test]
    fn empty_rows_keep_typed_columns() {
        let cols = rows_to_columns::<Row>(&[]).unwrap();
        assert_eq!(cols.len(), 5);
        assert_eq!(cols[0].1, Column::I64(vec![]));
        assert_eq!(cols[2].1, Column::F64(vec![]));
    }

    #[test]
    fn struct_of_vectors_splits_into_columns() {
        let cols = struct_to_columns(&Table {
            t: vec![0.0, 0.1],
            n: vec![1, u64::MAX],
        })
        .unwrap();
        assert_eq!(cols[0], ("t".into(), Column::F64(vec![0.0, 0.1])));
        // u64 beyond i64 is kept exactly, as a generic column.
        assert_eq!(
            cols[1].1,
            Column::Any(vec![Cell::I64(1), Cell::U64(u64::MAX)])
        );
    }
}
