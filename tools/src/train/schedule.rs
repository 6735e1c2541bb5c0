//! The learning-rate schedule of `brudno train`, step by step.
//!
//! Two shapes: `exponential`, the learning rate multiplied by `--decay` after every epoch
//! (the recipe of the warm-started networks up to the thirteenth), and `cosine`, the field's
//! long schedule from scratch: a linear warm-up from zero over `--warmup` epochs, then a
//! half cosine from the peak (`--learning-rate`) down to `--final-rate` times the peak at the
//! last step. The rate is a function of the gradient step alone, so a run's schedule is the
//! same whatever the threads.

use clap::ValueEnum;

/// The shape of the learning rate over the run.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The rate multiplied by `--decay` after every epoch.
    Exponential,
    /// A linear warm-up over `--warmup` epochs, then a half cosine to `--final-rate` of the peak.
    Cosine,
}

impl Shape {
    /// The name written in the training record.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Exponential => "exponential",
            Shape::Cosine => "cosine",
        }
    }
}

/// A whole run's schedule.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// The shape.
    pub shape: Shape,
    /// The rate at the start (exponential) or at the end of the warm-up (cosine).
    pub peak: f32,
    /// Exponential: the factor after each epoch.
    pub decay: f32,
    /// Cosine: the warm-up, in epochs (may be fractional).
    pub warmup_epochs: f32,
    /// Cosine: the last step's rate as a share of the peak.
    pub final_share: f32,
    /// Epochs of the run.
    pub epochs: usize,
    /// Gradient steps in one epoch.
    pub steps_per_epoch: usize,
}

impl Schedule {
    /// The learning rate of gradient step `step` (0-based, counted over the whole run).
    pub fn rate(&self, step: usize) -> f32 {
        let per_epoch = self.steps_per_epoch.max(1);
        match self.shape {
            Shape::Exponential => self.peak * self.decay.powi((step / per_epoch) as i32),
            Shape::Cosine => {
                let total = (self.epochs * per_epoch).max(1) as f64;
                let warmup = (f64::from(self.warmup_epochs) * per_epoch as f64).min(total);
                let at = step as f64 + 1.0;
                let peak = f64::from(self.peak);
                if at <= warmup {
                    return (peak * at / warmup) as f32;
                }
                let span = (total - warmup).max(1.0);
                let progress = ((at - warmup) / span).clamp(0.0, 1.0);
                let low = peak * f64::from(self.final_share);
                let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
                (low + (peak - low) * cosine) as f32
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(shape: Shape) -> Schedule {
        Schedule {
            shape,
            peak: 0.001,
            decay: 0.5,
            warmup_epochs: 1.0,
            final_share: 0.01,
            epochs: 20,
            steps_per_epoch: 100,
        }
    }

    #[test]
    fn exponential_decays_once_an_epoch() {
        let s = schedule(Shape::Exponential);
        assert_eq!(s.rate(0), 0.001);
        assert_eq!(s.rate(99), 0.001);
        assert_eq!(s.rate(100), 0.0005);
        assert_eq!(s.rate(250), 0.00025);
    }

    #[test]
    fn cosine_warms_up_peaks_and_ends_at_its_final_share() {
        let s = schedule(Shape::Cosine);
        // The warm-up climbs linearly from near zero to the peak at the end of epoch 1.
        assert!((s.rate(0) - 0.00001).abs() < 1e-9);
        assert!((s.rate(49) - 0.0005).abs() < 1e-9);
        assert!((s.rate(99) - 0.001).abs() < 1e-9);
        // Halfway through the decay it is halfway between the peak and the floor.
        let middle = s.rate(99 + 950);
        assert!((middle - (0.001 + 0.00001) / 2.0).abs() < 1e-7, "{middle}");
        // It never rises after the warm-up, and the last step is the floor.
        let rates: Vec<f32> = (99..2000).map(|step| s.rate(step)).collect();
        assert!(rates.windows(2).all(|w| w[1] <= w[0]));
        assert!((s.rate(1999) - 0.00001).abs() < 1e-9);
    }
}
