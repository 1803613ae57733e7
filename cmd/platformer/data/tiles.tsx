<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="tiles" tilewidth="16" tileheight="16" tilecount="4" columns="4">
 <image source="tiles.png" width="64" height="16"/>
 <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="1"><properties><property name="oneway" type="bool" value="true"/></properties></tile>
 <tile id="2"><properties><property name="solid" type="bool" value="true"/></properties></tile>
</tileset>
