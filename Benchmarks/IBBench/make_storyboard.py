#!/usr/bin/env python3
"""A storyboard of N scenes for `layoutd-ib-bench`: each scene a controller whose root holds
a column of K cards pinned to the safe area (an image, a vertical stack of two labels, a
switch), written as Xcode writes them, frames as UIKit lays them out on an iPhone 8 with
stored content sizes. `make_storyboard.py --scenes 50 --cards 8 > /tmp/s.storyboard`."""
import argparse


def scene(s, cards):
    v, c = [], []
    y = 20 + 16
    for k in range(cards):
        p = f"s{s}c{k}"
        v.append(f"""
                            <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="{p}">
                                <rect key="frame" x="16" y="{y}" width="343" height="64"/>
                                <subviews>
                                    <imageView contentMode="scaleToFill" image="avatar" translatesAutoresizingMaskIntoConstraints="NO" id="{p}i">
                                        <rect key="frame" x="8" y="12" width="40" height="40"/>
                                    </imageView>
                                    <stackView opaque="NO" contentMode="scaleToFill" axis="vertical" spacing="4" translatesAutoresizingMaskIntoConstraints="NO" id="{p}s">
                                        <rect key="frame" x="60" y="12" width="216" height="40"/>
                                        <subviews>
                                            <label opaque="NO" text="Title {k}" horizontalHuggingPriority="251" verticalHuggingPriority="251" translatesAutoresizingMaskIntoConstraints="NO" id="{p}t">
                                                <rect key="frame" x="0.0" y="0.0" width="216" height="20"/>
                                                <fontDescription key="fontDescription" type="boldSystem" pointSize="17"/>
                                            </label>
                                            <label opaque="NO" text="Subtitle {k}" horizontalHuggingPriority="251" verticalHuggingPriority="251" translatesAutoresizingMaskIntoConstraints="NO" id="{p}u">
                                                <rect key="frame" x="0.0" y="24" width="216" height="16"/>
                                                <fontDescription key="fontDescription" type="system" pointSize="13"/>
                                            </label>
                                        </subviews>
                                    </stackView>
                                    <switch opaque="NO" contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="{p}w">
                                        <rect key="frame" x="286" y="16.5" width="51" height="31"/>
                                    </switch>
                                </subviews>
                                <constraints>
                                    <constraint firstAttribute="height" constant="64" id="{p}-h"/>
                                    <constraint firstItem="{p}i" firstAttribute="leading" secondItem="{p}" secondAttribute="leadingMargin" id="{p}-1"/>
                                    <constraint firstItem="{p}i" firstAttribute="centerY" secondItem="{p}" secondAttribute="centerY" id="{p}-2"/>
                                    <constraint firstItem="{p}s" firstAttribute="leading" secondItem="{p}i" secondAttribute="trailing" constant="12" id="{p}-3"/>
                                    <constraint firstItem="{p}s" firstAttribute="centerY" secondItem="{p}" secondAttribute="centerY" id="{p}-4"/>
                                    <constraint firstItem="{p}w" firstAttribute="leading" secondItem="{p}s" secondAttribute="trailing" constant="10" id="{p}-5"/>
                                    <constraint firstAttribute="trailing" secondItem="{p}w" secondAttribute="trailing" constant="8" id="{p}-6"/>
                                    <constraint firstItem="{p}w" firstAttribute="centerY" secondItem="{p}" secondAttribute="centerY" id="{p}-7"/>
                                </constraints>
                            </view>""")
        top = (f'<constraint firstItem="{p}" firstAttribute="top" secondItem="s{s}safe" secondAttribute="top" constant="16" id="{p}-top"/>'
               if k == 0 else
               f'<constraint firstItem="{p}" firstAttribute="top" secondItem="s{s}c{k - 1}" secondAttribute="bottom" constant="8" id="{p}-top"/>')
        c.append(top)
        c.append(f'<constraint firstItem="{p}" firstAttribute="leading" secondItem="s{s}root" secondAttribute="leadingMargin" id="{p}-l"/>')
        c.append(f'<constraint firstAttribute="trailingMargin" secondItem="{p}" secondAttribute="trailing" id="{p}-r"/>')
        y += 64 + 8
    return f"""
        <scene sceneID="s{s}scene">
            <objects>
                <viewController id="s{s}vc" sceneMemberID="viewController">
                    <view key="view" contentMode="scaleToFill" id="s{s}root">
                        <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                        <subviews>{''.join(v)}
                        </subviews>
                        <viewLayoutGuide key="safeArea" id="s{s}safe"/>
                        <constraints>
                            {chr(10).join(c)}
                        </constraints>
                    </view>
                </viewController>
            </objects>
        </scene>"""


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenes", type=int, default=50)
    ap.add_argument("--cards", type=int, default=8)
    a = ap.parse_args()
    print(f"""<?xml version="1.0" encoding="UTF-8"?>
<document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="1" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
    <device id="retina4_7" orientation="portrait" appearance="light"/>
    <scenes>{''.join(scene(s, a.cards) for s in range(a.scenes))}
    </scenes>
    <resources>
        <image name="avatar" width="40" height="40"/>
    </resources>
</document>""")


if __name__ == "__main__":
    main()
