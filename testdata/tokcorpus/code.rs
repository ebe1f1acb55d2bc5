//! A small arena-backed interner.
use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(u32);

#[derive(Default)]
pub struct Interner {
    map: HashMap<&'static str, Sym>,
    vec: Vec<&'static str>,
    buf: String,
    full: Vec<String>,
}

impl Interner {
    pub fn with_capacity(cap: usize) -> Self {
        let cap = cap.next_power_of_two();
        Interner { map: HashMap::default(), vec: Vec::new(), buf: String::with_capacity(cap), full: Vec::new() }
    }

    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&id) = self.map.get(name) {
            return id;
        }
        let name = unsafe { self.alloc(name) };
        let id = Sym(self.map.len() as u32);
        self.map.insert(name, id);
        self.vec.push(name);
        debug_assert!(self.lookup(id) == name);
        id
    }

    pub fn lookup(&self, id: Sym) -> &str { self.vec[id.0 as usize] }

    unsafe fn alloc(&mut self, name: &str) -> &'static str {
        let cap = self.buf.capacity();
        if cap < self.buf.len() + name.len() {
            let new_cap = (cap.max(name.len()) + 1).next_power_of_two();
            let new_buf = String::with_capacity(new_cap);
            let old_buf = std::mem::replace(&mut self.buf, new_buf);
            self.full.push(old_buf);
        }
        let interned = {
            let start = self.buf.len();
            self.buf.push_str(name);
            &self.buf[start..]
        };
        &*(interned as *const str)
    }
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "#{}", self.0) }
}

fn main() {
    let mut i = Interner::with_capacity(1 << 10);
    let (a, b) = (i.intern("hello"), i.intern("world"));
    assert_ne!(a, b);
    println!("{a} {b} {:?} {}", i.lookup(a), 0x_FF_u8 as i32 + 1_000_000i32);
    let v: Vec<_> = (0..10).filter(|x| x % 3 == 0).map(|x| x * x).collect();
    println!("{v:?} 'static lifetimes, r#\"raw\"#, b'x', '\\u{1F600}'");
}
