// Legal holds: the badge and place/lift control recordings, clients and companies share (its
// reason dialog a lazy chunk of its own), and a recording's hold as the viewer and the library show it.
export { HoldBadge, HoldToggle } from './hold-control';
export { RecordingHold } from './recording-hold';
