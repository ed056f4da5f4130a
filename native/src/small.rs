//! A fixed-capacity vector that is `Copy`, so that cloning a game state is one memory copy.

#[derive(Clone, Copy, Debug)]
pub struct Small<T: Copy + Default, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for Small<T, N> {
    fn default() -> Self {
        Small { len: 0, items: [T::default(); N] }
    }
}

/// Equal when the live items are (what lies beyond the length is never read).
impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Small<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Small<T, N> {}

impl<T: Copy + Default + PartialEq, const N: usize> Small<T, N> {
    pub const CAPACITY: usize = N;

    pub fn from_slice(xs: &[T]) -> Option<Self> {
        if xs.len() > N {
            return None;
        }
        let mut s = Self::default();
        s.items[..xs.len()].copy_from_slice(xs);
        s.len = xs.len() as u8;
        Some(s)
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// Appends; false (nothing changed) when full.
    #[inline]
    pub fn push(&mut self, x: T) -> bool {
        if (self.len as usize) < N {
            self.items[self.len as usize] = x;
            self.len += 1;
            true
        } else {
            false
        }
    }

    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.items[self.len as usize])
        }
    }

    #[inline]
    pub fn last(&self) -> Option<&T> {
        self.as_slice().last()
    }

    #[inline]
    pub fn set_last(&mut self, x: T) {
        let n = self.len as usize;
        self.items[n - 1] = x;
    }

    pub fn contains(&self, x: &T) -> bool {
        self.as_slice().contains(x)
    }

    pub fn position(&self, x: &T) -> Option<usize> {
        self.as_slice().iter().position(|y| y == x)
    }

    /// Removes the first occurrence (Python's list.remove); false if absent.
    pub fn remove_first(&mut self, x: &T) -> bool {
        match self.position(x) {
            Some(i) => {
                let n = self.len as usize;
                self.items.copy_within(i + 1..n, i);
                self.len -= 1;
                true
            }
            None => false,
        }
    }

    /// The length and every slot, also those past it (what an exact comparison of the live items
    /// may compare more of: the dead slots are initialised, and only make it stricter).
    #[inline]
    pub fn raw(&self) -> (u8, &[T; N]) {
        (self.len, &self.items)
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn retain(&mut self, mut f: impl FnMut(&T) -> bool) {
        let mut w = 0;
        for r in 0..self.len as usize {
            let x = self.items[r];
            if f(&x) {
                self.items[w] = x;
                w += 1;
            }
        }
        self.len = w as u8;
    }
}
