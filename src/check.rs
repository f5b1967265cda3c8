//! `boardkit dev check`: proves that every game's tests discriminate.
