// Package components holds the component types games are made of (Transform
// with interpolation, Body, Sprite, Agent, ...) and their small helpers.
// They build on package engine and are filled in by the systems issue.
package components
