package shoot_test

import (
	"github.com/fixedstep/fixedstep/systems/shoot"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

var filterShots = filter.Contains(shoot.ShotC)

var filterStruck = filter.Contains(struckC)
