//! Newtype identifiers for the objects of a scenario. Each is a dense index
//! into a `Vec` owned by the simulation, so lookups are O(1) and iteration order
//! is the order of declaration in the scenario (deterministic).

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The dense index this id stands for.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A node of the topology (host, router, and later OBS edge or core node).
    NodeId
);
id_type!(
    /// One direction of a link (a simplex channel from one node to another).
    LinkId
);
id_type!(
    /// A TCP flow: one sender and one receiver.
    FlowId
);
id_type!(
    /// One direction of a generated flow's access pipe (`engine/pipes.rs`):
    /// a slot of the engine's lane pool, reused once its flow has ended and
    /// its last packet has left it.
    PipeId
);
