package donburi

import "github.com/fixedstep/fixedstep/third_party/donburi/internal/storage"

// Entity is identifier of an entity.
// Entity is just a wrapper of uint64.
type Entity = storage.Entity

// Null represents a invalid entity which is zero.
var Null = storage.Null
