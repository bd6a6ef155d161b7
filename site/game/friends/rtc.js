// rtc.js: one WebRTC data channel between the host's page and a friend's, set up by hand:
// the host's offer and the friend's answer each carry every ICE candidate (gathering ends
// before either is shown), so nothing but the two codes passes between the devices and no
// server is asked anything. No STUN or TURN server unless the player named a STUN server in
// Settings (the only request to another address the game ever makes, and only then).

/** How long gathering the connection's candidates may take before the code is shown anyway (ms). */
const GATHER_MS = 8000;
/** The data channel's label. */
const LABEL = "spades";

/** The connection's configuration: a STUN server only when the player set one. */
const config = (stun) => ({ iceServers: stun ? [{ urls: stun }] : [] });

/** Resolves once `pc` has gathered every candidate (or after GATHER_MS). */
function gathered(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, GATHER_MS);
    function done() {
      clearTimeout(timer);
      pc.removeEventListener("icegatheringstatechange", check);
      resolve();
    }
    function check() {
      if (pc.iceGatheringState === "complete") done();
    }
    pc.addEventListener("icegatheringstatechange", check);
  });
}

/** The host's side: a connection, its data channel, and the offer with every candidate. */
export async function makeOffer(stun) {
  const pc = new RTCPeerConnection(config(stun));
  const channel = pc.createDataChannel(LABEL, { ordered: true });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  return { pc, channel, sdp: pc.localDescription.sdp };
}

/** The host takes the friend's answer. */
export async function takeAnswer(pc, sdp) {
  await pc.setRemoteDescription({ type: "answer", sdp });
}

/** The friend's side: a connection answering `offer`; `channel` resolves when the host's channel arrives. */
export async function makeAnswer(offer, stun) {
  const pc = new RTCPeerConnection(config(stun));
  const channel = new Promise((resolve) => {
    pc.addEventListener("datachannel", (ev) => resolve(ev.channel), { once: true });
  });
  await pc.setRemoteDescription({ type: "offer", sdp: offer });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return { pc, channel, sdp: pc.localDescription.sdp };
}

/** Resolves when `channel` is open; rejects when it closes or fails first, or after `ms`. */
export function opened(channel, ms) {
  if (channel.readyState === "open") return Promise.resolve(channel);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    channel.addEventListener("open", () => {
      clearTimeout(timer);
      resolve(channel);
    }, { once: true });
    channel.addEventListener("close", () => {
      clearTimeout(timer);
      reject(new Error("closed"));
    }, { once: true });
  });
}
