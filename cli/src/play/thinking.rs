//! A spinner with the time elapsed while a computer player thinks, past a
//! short delay: people see that the program works, not that it hangs. It
//! draws on stderr, only when stderr is a terminal (indicatif hides it
//! otherwise); what the game prints is untouched.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use boardkit::player::Strategy;

/// `inner`, with a spinner past `delay` of thinking.
pub(crate) struct Thinking<S> {
    inner: S,
    delay: Duration,
}

impl<S> Thinking<S> {
    /// The spinner appears after 0.3 s: a quicker move shows none.
    pub(crate) fn new(inner: S) -> Self {
        Thinking {
            inner,
            delay: Duration::from_millis(300),
        }
    }
}

impl<B: ?Sized, M, S: Strategy<B, M>> Strategy<B, M> for Thinking<S> {
    fn choose(&mut self, board: &B) -> M {
        let delay = self.delay;
        let (done, finished) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            scope.spawn(move || {
                if finished.recv_timeout(delay) != Err(RecvTimeoutError::Timeout) {
                    return;
                }
                let spinner = indicatif::ProgressBar::new_spinner()
                    .with_elapsed(delay)
                    .with_style(
                        indicatif::ProgressStyle::with_template(
                            "{spinner} the computer is thinking... {elapsed}",
                        )
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                    );
                spinner.enable_steady_tick(Duration::from_millis(100));
                let _ = finished.recv();
                spinner.finish_and_clear();
            });
            let choice = self.inner.choose(board);
            drop(done);
            choice
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Slow(Duration);

    impl Strategy<(), usize> for Slow {
        fn choose(&mut self, _: &()) -> usize {
            std::thread::sleep(self.0);
            4
        }
    }

    #[test]
    fn the_inner_choice_is_played_however_long_it_takes() {
        let mut quick = Thinking::new(Slow(Duration::ZERO));
        assert_eq!(quick.choose(&()), 4);
        let mut slow = Thinking {
            inner: Slow(Duration::from_millis(50)),
            delay: Duration::from_millis(10),
        };
        assert_eq!(slow.choose(&()), 4);
    }
}
