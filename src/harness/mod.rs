//! The kit's side of each exercise, shipped as is with every starter: a
//! game's levels and how they are compared, the options of its program, and
//! its function driver. Each calls only the API its statement names.

pub mod connect4;
pub mod mastermind;
pub mod velha;
